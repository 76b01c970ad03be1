import type { AppContext } from '../../platform/context.ts';
import type { CanvasCourseFile } from '../../platform/registry.ts';
import {
  CanvasAuthError,
  CanvasForbiddenError,
  CanvasNetworkError,
  CanvasNotFoundError,
  CanvasTimeoutError,
} from './canvas-errors.ts';
import type { CanvasFile } from './canvas-types.ts';
import type { Lms } from './lms-state.ts';
import { canvasAccount, canvasClientFor } from './lms.service.ts';

/** A Canvas file of a course as the documents feature lists it (requirements §3 "LMS file as shown"). */
export type LmsCourseFile = CanvasCourseFile;

export type LmsFailure = 'not_connected' | 'forbidden' | 'auth' | 'not_found' | 'unreachable' | 'failed';

export class LmsNotConnectedError extends Error {
  constructor() {
    super('Canvas is not connected');
  }
}

/** The kind of a failure of the functions below, for the caller's own messages. */
export function lmsFailureKind(err: unknown): LmsFailure {
  if (err instanceof LmsNotConnectedError) return 'not_connected';
  if (err instanceof CanvasAuthError) return 'auth';
  if (err instanceof CanvasForbiddenError) return 'forbidden';
  if (err instanceof CanvasNotFoundError) return 'not_found';
  if (err instanceof CanvasNetworkError || err instanceof CanvasTimeoutError) return 'unreachable';
  return 'failed';
}

const toFile = (f: CanvasFile, moduleName: string | null): LmsCourseFile => ({
  id: String(f.id),
  displayName: f.display_name,
  filename: f.filename,
  size: f.size ?? 0,
  url: f.url ?? '',
  contentType: f['content-type'] ?? 'application/octet-stream',
  createdAt: f.created_at ?? null,
  moduleName,
});

/** Both the Canvas address and the token are stored and non-blank (requirements §5). */
export async function isCanvasConnected(ctx: AppContext, userId: string): Promise<boolean> {
  return (await canvasAccount(ctx, userId)).credentials !== null;
}

async function client(lms: Lms, userId: string) {
  const c = await canvasClientFor(lms, userId);
  if (!c) throw new LmsNotConnectedError();
  return c;
}

/**
 * The course's files and the files its modules link to, each with the first module naming it. The files list
 * must be readable (its 403 is the caller's "no permission to view files" case); modules are best effort.
 */
export async function listCourseFiles(lms: Lms, userId: string, courseId: string): Promise<LmsCourseFile[]> {
  const c = await client(lms, userId);
  const [files, modules] = await Promise.allSettled([c.listFiles(courseId), c.listModules(courseId)]);
  if (files.status === 'rejected') throw files.reason;
  const moduleOf = new Map<string, string>();
  if (modules.status === 'fulfilled') {
    for (const m of modules.value) {
      for (const item of m.items ?? []) {
        if (item.type === 'File' && item.content_id !== undefined && !moduleOf.has(String(item.content_id))) {
          moduleOf.set(String(item.content_id), m.name);
        }
      }
    }
  }
  const listed = new Set(files.value.map((f) => String(f.id)));
  // Module files outside the visible file list (e.g. in a hidden folder) are fetched one by one.
  const extra = await Promise.allSettled(
    [...moduleOf.keys()].filter((id) => !listed.has(id)).map((id) => c.getCourseFile(courseId, id)),
  );
  return [
    ...files.value.map((f) => toFile(f, moduleOf.get(String(f.id)) ?? null)),
    ...extra.flatMap((r) =>
      r.status === 'fulfilled' ? [toFile(r.value, moduleOf.get(String(r.value.id)) ?? null)] : [],
    ),
  ];
}

/** One file of the course, downloaded (the token is never sent to the download hosts). */
export async function downloadCourseFile(
  lms: Lms,
  userId: string,
  courseId: string,
  fileId: string,
): Promise<{ bytes: Buffer; contentType: string; file: LmsCourseFile }> {
  const c = await client(lms, userId);
  const file = toFile(await c.getCourseFile(courseId, fileId), null);
  if (!file.url) throw new CanvasForbiddenError(403, 'the file is locked');
  const { bytes, contentType } = await c.download(file.url);
  return { bytes, contentType: contentType ?? file.contentType, file };
}
