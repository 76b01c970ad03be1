import type { DocumentType } from '@studybuddy/shared/documents';
import type { CanvasFileDto, FetchCourseFilesInput } from '@studybuddy/shared/documents-api';
import type { FetchCourseFilesAnswer } from '@studybuddy/shared/documents-responses';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import type { CanvasSync } from './canvas-sync.ts';
import * as repo from './documents.repository.ts';
import { toDocumentDto } from './documents.mapper.ts';
import type { ProcessingService } from './processing.service.ts';

/** An LMS file as shown (requirements §3): id prefixed 'canvas_', with both the §7 and the §3 field names. */
export function toCanvasFileDto(row: repo.DocumentRow): CanvasFileDto {
  const dto = toDocumentDto(row);
  const created = row.canvasCreatedAt?.toISOString() ?? null;
  return {
    id: `canvas_${row.canvasFileId}`,
    display_name: row.name,
    filename: row.name,
    name: row.name,
    type: row.type as DocumentType,
    size: row.size,
    url: dto.url,
    content: row.status === 'done' ? (row.text ?? '') : null,
    created_at: created,
    createdAt: created,
    source: 'canvas',
    courseId: row.courseId,
    module_name: row.moduleName,
    moduleName: row.moduleName,
    documentId: row.id,
  };
}

/**
 * §7 call 3 for the signed-in user (the server uses their stored Canvas token): the course's files and
 * module files, or with `file_id` that file's text (202 while it is still being extracted).
 */
export async function fetchCourseFiles(
  deps: { db: Db; canvas: CanvasSync; processing: ProcessingService },
  userId: string,
  input: FetchCourseFilesInput,
): Promise<FetchCourseFilesAnswer> {
  const { db, canvas, processing } = deps;
  if (!(await canvas.isConnected(userId))) {
    throw new AppError(400, 'not_connected', MSG.courses.connectCanvasPrompt);
  }
  const listing = await canvas.sync(userId, input.course_id, !input.file_id);
  if (listing.error?.kind === 'forbidden') {
    throw new AppError(403, 'canvas_forbidden', listing.error.messages.join(' '));
  }
  if (listing.error) throw new AppError(502, 'canvas_unreachable', listing.error.messages.join(' '));
  const rows = (await repo.listCourseDocuments(db, userId, input.course_id)).filter((r) => r.source === 'canvas');
  if (!input.file_id) return { status: 200, body: { files: rows.map(toCanvasFileDto) } };

  const fileId = input.file_id.replace(/^canvas_/, '');
  const row = rows.find((r) => r.canvasFileId === fileId);
  if (!row) throw notFound(MSG.courses.fetchContentFailed(MSG.api.notFound));
  if (row.status === 'done') return { status: 200, body: { content: row.text ?? '', file: toCanvasFileDto(row) } };
  const document = await processing.process(userId, row.id);
  return { status: 202, body: { content: null, status: document.status, document } };
}
