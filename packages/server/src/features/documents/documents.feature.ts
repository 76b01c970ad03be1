import { DOCUMENT_MAX_UPLOAD_BYTES } from '@studybuddy/shared/documents';
import { COURSE_DOCUMENT_UPLOAD_TARGET } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { badRequest } from '../../platform/errors.ts';
import { registerAccessRule } from '../../platform/storage/access.ts';
import { registerUploadTarget } from '../../platform/storage/upload-targets.ts';
import { profiles } from '../profile/profiles.service.ts';
import { documentsRoutes, type DocumentsOptions } from './documents.routes.ts';
import { documentsFolder, uploadsFolder } from './storage-paths.ts';

/**
 * Course documents: their files (readable by their owner only, gone with the account), the resumable upload
 * target of large files (which then become documents, POST /api/documents), the processing queue and the routes.
 */
export function documentsFeature(ctx: AppContext, options: DocumentsOptions = {}) {
  ctx.registry.accountCleanups.push((userId) => ctx.storage.deletePrefix(documentsFolder(userId)));
  registerUploadTarget(ctx, COURSE_DOCUMENT_UPLOAD_TARGET, {
    kind: 'file',
    maxBytes: DOCUMENT_MAX_UPLOAD_BYTES,
    async folder(user, params) {
      const courses = await profiles.courses(ctx.db, user.id);
      if (!courses.some((c) => c.id === params.courseId)) throw badRequest(MSG.courses.courseRequired, 'courseId');
      return uploadsFolder(user.id);
    },
  });
  registerAccessRule(ctx, 'documents', (reader, fullPath) => fullPath.split('/')[1] === reader.id);
  return documentsRoutes(ctx, options);
}
