import type { AppContext } from '../../platform/context.ts';
import { lmsFailureKind } from '../lms/course-files.service.ts';
import { CanvasFilesError, type CanvasFilesSource } from './canvas-files.ts';

async function mapped<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw new CanvasFilesError(lmsFailureKind(err), err instanceof Error ? err.message : String(err));
  }
}

/** Canvas files through the LMS feature (`ctx.registry.canvasFiles`): the user's stored (encrypted) token. */
export function lmsCanvasFiles(ctx: AppContext): CanvasFilesSource {
  return {
    isConnected: (userId) => ctx.registry.canvasFiles.isConnected(userId).catch(() => false),
    listCourseFiles: (userId, courseId) => mapped(ctx.registry.canvasFiles.list(userId, courseId)),
    downloadFile: (userId, courseId, fileId) => mapped(ctx.registry.canvasFiles.download(userId, courseId, fileId)),
  };
}
