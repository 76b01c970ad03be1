import type { AppContext } from '../../platform/context.ts';
import { downloadCourseFile, listCourseFiles, lmsFailureKind } from '../lms/course-files.service.ts';
import { canvasClientFor } from '../lms/lms.service.ts';
import { CanvasFilesError, type CanvasFilesSource } from './canvas-files.ts';

async function mapped<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw new CanvasFilesError(lmsFailureKind(err), err instanceof Error ? err.message : String(err));
  }
}

/** Canvas files through the LMS feature: the user's stored (encrypted) token and its Canvas client. */
export function lmsCanvasFiles(ctx: AppContext): CanvasFilesSource {
  return {
    isConnected: async (userId) => (await canvasClientFor(ctx, userId).catch(() => null)) !== null,
    listCourseFiles: (userId, courseId) => mapped(listCourseFiles(ctx, userId, courseId)),
    downloadFile: async (userId, courseId, fileId) => {
      const { bytes, contentType } = await mapped(downloadCourseFile(ctx, userId, courseId, fileId));
      return { bytes, contentType };
    },
  };
}
