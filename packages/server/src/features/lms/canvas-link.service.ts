import type { FetchCanvasCoursesInput, FetchCourseworkInput } from '@studybuddy/shared/lms';
import type { AppContext } from '../../platform/context.ts';
import type { CanvasFiles } from '../../platform/registry.ts';
import { revokeCanvasToken } from './account-data.service.ts';
import { downloadCourseFile, isCanvasConnected, listCourseFiles } from './course-files.service.ts';
import { loadCoursework } from './coursework.service.ts';
import { newLmsState, type Lms, type LmsOptions } from './lms-state.ts';
import { connectCanvas, disconnectCanvas, fetchCanvasCourses, lmsStatus } from './lms.service.ts';

/**
 * The LMS feature's service, one per app: it holds the per-student Canvas request gates, the coursework loads in
 * flight, the clock and the Canvas timings, and runs the link, the §7 calls and the course files with them.
 */
export function createLmsService(ctx: AppContext, options: LmsOptions = {}) {
  const lms: Lms = { ctx, state: newLmsState(options) };
  const canvasFiles: CanvasFiles = {
    isConnected: (userId) => isCanvasConnected(ctx, userId),
    list: (userId, courseId) => listCourseFiles(lms, userId, courseId),
    download: async (userId, courseId, fileId) => {
      const { bytes, contentType } = await downloadCourseFile(lms, userId, courseId, fileId);
      return { bytes, contentType };
    },
  };
  return {
    status: (userId: string, tz?: string) => lmsStatus(lms, userId, tz),
    connect: (userId: string, token: string) => connectCanvas(lms, userId, token),
    disconnect: (userId: string) => disconnectCanvas(ctx, userId),
    fetchCourses: (userId: string, input: FetchCanvasCoursesInput) => fetchCanvasCourses(lms, userId, input),
    loadCoursework: (userId: string, input: FetchCourseworkInput) => loadCoursework(lms, userId, input),
    /** A deleted account's Canvas token, withdrawn with Canvas too (not only forgotten here). */
    revokeToken: (userId: string) => revokeCanvasToken(lms, userId),
    /** What other features reach Canvas files by (`ctx.registry.canvasFiles`). */
    canvasFiles,
  };
}

export type LmsService = ReturnType<typeof createLmsService>;
