import { randomUUID } from 'node:crypto';
import { documentTypeFor } from '@studybuddy/shared/documents';
import type { CanvasListingStatus } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { CanvasFilesError, type CanvasFilesSource } from './canvas-files.ts';
import { upsertCanvasFiles } from './documents.repository.ts';

const CANVAS_LIST_TTL_MS = 2 * 60_000;

export type CanvasSync = ReturnType<typeof createCanvasSync>;

/**
 * A course's Canvas files as documents of the student (not processed until opened), and how Canvas answered. The
 * listing is kept a while per student and course: the list is polled while documents are processed.
 */
export function createCanvasSync(deps: { ctx: AppContext; canvas: CanvasFilesSource }) {
  const { ctx, canvas } = deps;
  const listings = new Map<string, { at: number; status: CanvasListingStatus }>();

  async function list(userId: string, courseId: string): Promise<CanvasListingStatus> {
    let status: CanvasListingStatus = { connected: true, error: null };
    try {
      const files = await canvas.listCourseFiles(userId, courseId);
      await upsertCanvasFiles(
        ctx.db,
        userId,
        courseId,
        files.map((f) => ({
          canvasFileId: f.id,
          name: f.displayName || f.filename,
          size: f.size,
          url: f.url,
          contentType: f.contentType,
          moduleName: f.moduleName,
          createdAt: f.createdAt ? new Date(f.createdAt) : null,
          type: documentTypeFor(f.displayName || f.filename),
        })),
        randomUUID,
      );
    } catch (err) {
      if (!(err instanceof CanvasFilesError)) ctx.log.warn({ err }, 'listing Canvas files failed');
      const kind = err instanceof CanvasFilesError ? err.kind : 'failed';
      if (kind === 'forbidden') {
        status.error = { kind: 'forbidden', messages: [MSG.courses.canvasForbidden, MSG.courses.canStillUpload] };
      } else if (kind === 'not_found' || kind === 'not_connected') {
        // A course added by hand has no Canvas counterpart: nothing to list, nothing wrong.
        status = { connected: kind !== 'not_connected', error: null };
      } else {
        status.error = { kind: 'unreachable', messages: [MSG.courses.canvasUnreachable] };
      }
    }
    return status;
  }

  return {
    isConnected: (userId: string) => canvas.isConnected(userId),

    /** Canvas files of the course into the documents table (`refresh` asks Canvas even within the cache time). */
    async sync(userId: string, courseId: string, refresh: boolean): Promise<CanvasListingStatus> {
      if (!(await canvas.isConnected(userId))) return { connected: false, error: null };
      const key = `${userId}:${courseId}`;
      const cached = listings.get(key);
      if (!refresh && cached && Date.now() - cached.at < CANVAS_LIST_TTL_MS) return cached.status;
      const status = await list(userId, courseId);
      listings.set(key, { at: Date.now(), status });
      return status;
    },
  };
}
