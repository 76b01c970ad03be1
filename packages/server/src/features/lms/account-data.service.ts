import type { CourseworkItem, SkippedCourse } from '@studybuddy/shared/lms';
import type { AppContext } from '../../platform/context.ts';
import { findCache, findLink } from './lms.repository.ts';
import type { Lms } from './lms-state.ts';
import { canvasAccount, describe, newClient } from './lms.service.ts';

/** The student's Canvas link and cached coursework as their data download gives it (never the token). */
export interface CourseworkExport {
  canvasUrl: string;
  connected: boolean;
  fetchedAt: string | null;
  courses: { id: string; name: string }[];
  coursework: CourseworkItem[];
  skippedCourses: SkippedCourse[];
}

export async function courseworkForExport(ctx: AppContext, userId: string): Promise<CourseworkExport> {
  const [link, cache] = await Promise.all([findLink(ctx.db, userId), findCache(ctx.db, userId)]);
  return {
    canvasUrl: link.canvasUrl,
    connected: link.tokenBox !== '',
    fetchedAt: cache?.fetchedAt.toISOString() ?? null,
    courses: cache?.courses ?? [],
    coursework: cache?.coursework ?? [],
    skippedCourses: cache?.skippedCourses ?? [],
  };
}

/**
 * Before an account goes: its Canvas token is withdrawn with Canvas when possible (a token Canvas no longer knows,
 * or a Canvas that cannot be reached, is logged and the deletion goes on; the stored token goes with the account).
 */
export async function revokeCanvasToken(lms: Lms, userId: string): Promise<void> {
  const { ctx } = lms;
  try {
    const { credentials } = await canvasAccount(ctx, userId);
    if (!credentials) return;
    await newClient(lms, userId, credentials.canvasUrl, credentials.token).revokeToken();
    ctx.log.info({ userId }, 'Canvas token revoked with Canvas');
  } catch (err) {
    ctx.log.warn({ userId, err: describe(err) }, 'Canvas token could not be revoked with Canvas');
  }
}
