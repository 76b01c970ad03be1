import { LIMITS } from '@studybuddy/shared/limits';
import { localDay } from '@studybuddy/shared/coursework-filters';
import type {
  ConnectResponse,
  FetchCanvasCoursesInput,
  FetchCanvasCoursesResponse,
  LmsStatus,
} from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { trimTrailing } from '@studybuddy/shared/text-scan';
import type { AppContext } from '../../platform/context.ts';
import { decryptSecret, DecryptError, encryptSecret } from '../../platform/crypto.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { sha256 } from '../../platform/passwords.ts';
import { canvasAppError } from './canvas-app-error.ts';
import { CanvasClient } from './canvas-client.ts';
import { CanvasAuthError } from './canvas-errors.ts';
import { canvasSettingsUrl, resolveCanvasUrl } from './canvas-url.ts';
import { mergeCourses } from './course-merge.ts';
import type { Lms } from './lms-state.ts';
import { withTransaction } from '../../db/transaction.ts';
import { profiles } from '../profile/profiles.service.ts';
import type { CourseRef } from './course-merge.ts';
import { deleteLink, findLink, refreshesUsed, saveLink } from './lms.repository.ts';

export type { LmsOptions } from './lms-state.ts';
// For other features (course files): the client, its typed errors and the mapping to API errors.
export type { CanvasClient } from './canvas-client.ts';
export { canvasAppError } from './canvas-app-error.ts';
export {
  CanvasAuthError,
  CanvasError,
  CanvasForbiddenError,
  CanvasNotFoundError,
  CanvasThrottledError,
} from './canvas-errors.ts';

export interface CanvasCredentials {
  canvasUrl: string;
  token: string;
  /** Changes whenever the stored token changes. */
  connectionId: string;
}

/** The student's Canvas link with what the profile says of them (their e-mail decides their Canvas). */
export interface StoredCanvas {
  email: string;
  canvasUrl: string;
  /** The encrypted token box ('' when not connected). */
  tokenBox: string;
  courses: CourseRef[];
}

export interface CanvasAccount {
  profile: StoredCanvas;
  /** The address the user's university has (null: 'Canvas URL not available for your university'). */
  resolvedUrl: string | null;
  /** Stored credentials: both the address and the token non-blank (requirements §5), else null (not connected). */
  credentials: CanvasCredentials | null;
}

export async function canvasAccount(ctx: AppContext, userId: string): Promise<CanvasAccount> {
  const [email, courses, link] = await Promise.all([
    profiles.email(ctx.db, userId),
    profiles.courses(ctx.db, userId),
    findLink(ctx.db, userId),
  ]);
  if (email === undefined) throw notFound();
  const profile: StoredCanvas = { email, courses, ...link };
  const resolvedUrl = resolveCanvasUrl(profile.email, ctx.config.universities);
  const url = profile.canvasUrl.trim();
  const box = profile.tokenBox.trim();
  let credentials: CanvasCredentials | null = null;
  if (url && box && /^https?:\/\//i.test(url)) {
    try {
      const token = decryptSecret(ctx.config.secretKey, box, userId).trim();
      if (token.length >= LIMITS.lmsTokenMin) {
        credentials = { canvasUrl: url, token, connectionId: sha256(`${userId}:${box}`).slice(0, 24) };
      }
    } catch (err) {
      if (!(err instanceof DecryptError)) throw err;
      // SECRET_KEY changed: the stored token is unreadable, so the user has to connect again.
      ctx.log.warn({ userId }, 'stored Canvas token cannot be decrypted with the current SECRET_KEY');
    }
  }
  return { profile, resolvedUrl, credentials };
}

/** A Canvas client for a user's stored credentials (for other features, e.g. course files); null when not connected. */
export async function canvasClientFor(lms: Lms, userId: string): Promise<CanvasClient | null> {
  const { credentials } = await canvasAccount(lms.ctx, userId);
  return credentials ? newClient(lms, userId, credentials.canvasUrl, credentials.token) : null;
}

export function newClient(lms: Lms, userId: string, baseUrl: string, token: string): CanvasClient {
  const { state } = lms;
  return new CanvasClient({ baseUrl, token, gate: state.gates.for(userId), ...state.client });
}

/** Checks a canvas_url given in a request: only the user's own Canvas address is accepted. */
export function checkCanvasUrl(given: string | undefined, account: CanvasAccount): string {
  const own = account.credentials?.canvasUrl ?? account.resolvedUrl;
  if (!own) throw new AppError(400, 'canvas_unavailable', MSG.lms.urlUnavailable);
  if (given !== undefined && trimTrailing(given, '/').toLowerCase() !== own.toLowerCase()) {
    throw badRequest(MSG.lms.urlMismatch, 'canvas_url');
  }
  return own;
}

export async function lmsStatus(lms: Lms, userId: string, tz = 'UTC'): Promise<LmsStatus> {
  const { ctx, state } = lms;
  const account = await canvasAccount(ctx, userId);
  const used = await refreshesUsed(ctx.db, userId, localDay(state.now(), tz));
  const url = account.credentials?.canvasUrl ?? account.resolvedUrl;
  return {
    connected: account.credentials !== null,
    available: account.resolvedUrl !== null,
    connection_id: account.credentials?.connectionId ?? null,
    settings_url: url ? canvasSettingsUrl(url) : null,
    refreshes_remaining: Math.max(0, LIMITS.forcedRefreshesPerDay - used),
  };
}

/**
 * Connect: checks the token with Canvas, then in one transaction stores the address and the encrypted token,
 * merges up to 10 active Canvas courses into the profile (cut to 10) and drops the old coursework cache.
 */
export async function connectCanvas(lms: Lms, userId: string, token: string): Promise<ConnectResponse> {
  const { ctx } = lms;
  const account = await canvasAccount(ctx, userId);
  if (!account.resolvedUrl) throw new AppError(400, 'canvas_unavailable', MSG.lms.urlUnavailable);
  const client = newClient(lms, userId, account.resolvedUrl, token);
  let active;
  try {
    active = await client.listActiveCourses();
  } catch (err) {
    if (err instanceof CanvasAuthError)
      throw new AppError(400, 'canvas_token_invalid', MSG.lms.tokenInvalid, 'access_token');
    ctx.log.warn({ userId, err: describe(err) }, 'Canvas course import failed');
    throw courseListError(err);
  }
  const fromCanvas = active.slice(0, LIMITS.lmsMaxCourses).map((c) => ({ id: String(c.id), name: c.name.trim() }));
  const courses = mergeCourses(account.profile.courses, fromCanvas);
  const link = { canvasUrl: account.resolvedUrl, tokenBox: encryptSecret(ctx.config.secretKey, token, userId) };
  const saved = await withTransaction(ctx.db, async (tx) => {
    if (!(await profiles.setCourses(tx, userId, courses))) return false;
    await saveLink(tx, userId, link);
    return true;
  });
  if (!saved) throw notFound();
  // The old coursework is gone and the course list may have been cut: hot groups of dropped courses let go.
  await coursesChanged(ctx, userId);
  const ids = new Set(fromCanvas.map((c) => c.id));
  return { imported: courses.filter((c) => ids.has(c.id)), courses, status: await lmsStatus(lms, userId) };
}

export async function disconnectCanvas(ctx: AppContext, userId: string): Promise<void> {
  await deleteLink(ctx.db, userId);
  await coursesChanged(ctx, userId);
}

/**
 * Tells the course listeners (groups: hot groups) that what vouches for the student's courses changed: the
 * imported coursework or the profile's Canvas courses. Call it once the change is committed.
 */
export async function coursesChanged(ctx: AppContext, userId: string): Promise<void> {
  await Promise.all(ctx.registry.courseListeners.map((listen) => listen(userId)));
}

/** §7 call 1: the user's active Canvas courses (id and name). */
export async function fetchCanvasCourses(
  lms: Lms,
  userId: string,
  input: FetchCanvasCoursesInput,
): Promise<FetchCanvasCoursesResponse> {
  const { ctx } = lms;
  const account = await canvasAccount(ctx, userId);
  const url = checkCanvasUrl(input.canvas_url, account);
  const token = input.access_token ?? account.credentials?.token;
  if (!token) throw new AppError(400, 'canvas_not_connected', MSG.lms.notConnected);
  try {
    const courses = await newClient(lms, userId, url, token).listActiveCourses();
    return { courses: courses.map((c) => ({ id: String(c.id), name: c.name.trim() })) };
  } catch (err) {
    ctx.log.warn({ userId, err: describe(err) }, 'Canvas course list failed');
    throw courseListError(err);
  }
}

/**
 * Canvas could not give the course list (down, slow, throttled, refusing): requirements §8 'Failed to load courses.
 * Please try again later.', with the status and code of the Canvas failure. A dead token stays a 401.
 */
function courseListError(err: unknown): unknown {
  const mapped = canvasAppError(err);
  if (!(mapped instanceof AppError) || err instanceof CanvasAuthError) return mapped;
  return new AppError(mapped.statusCode, mapped.code, MSG.courses.loadCoursesFailed);
}

/** A log-safe description of a failure (kind and status only: never URLs with secrets or tokens). */
export function describe(err: unknown): { kind: string; status: number | null } {
  if (err && typeof err === 'object' && 'kind' in err) {
    const e = err as { kind: string; status?: number | null };
    return { kind: e.kind, status: e.status ?? null };
  }
  return { kind: err instanceof Error ? err.name : 'unknown', status: null };
}
