import { localDay } from '@studybuddy/shared/coursework-filters';
import { LIMITS } from '@studybuddy/shared/limits';
import type { CourseworkItem, CourseworkResponse, FetchCourseworkInput } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { canvasAppError } from './canvas-app-error.ts';
import type { CourseRef } from './course-merge.ts';
import { fetchCoursework, type CourseworkResult } from './coursework-fetcher.ts';
import type { Lms } from './lms-state.ts';
import {
  findCache,
  holdsCourseSql,
  itemNameSql,
  refreshesUsed,
  returnRefresh,
  saveCache,
  takeRefresh,
} from './lms.repository.ts';
import { canvasAccount, checkCanvasUrl, coursesChanged, describe, newClient } from './lms.service.ts';

const coursesKey = (ids: string[]) => [...ids].sort().join(',');

/**
 * §7 call 2 with the spec's cache (§4 Coursework loading): the server cache when under 24 hours old and made
 * with the same token and courses, else Canvas. A forced refresh (`force`), or a load with a token given in
 * the request, always goes to Canvas and takes one of the day's 3 refreshes, counted per user and local day
 * (`tz`); a refresh whose load fails is given back.
 */
export async function loadCoursework(
  lms: Lms,
  userId: string,
  input: FetchCourseworkInput,
): Promise<CourseworkResponse> {
  const { ctx, state } = lms;
  const now = state.now();
  const day = localDay(now, input.tz ?? 'UTC');
  const account = await canvasAccount(ctx, userId);
  const explicit = input.access_token !== undefined;
  const creds = account.credentials;
  if (!explicit && !creds) throw new AppError(400, 'canvas_not_connected', MSG.lms.notConnected);
  const url = checkCanvasUrl(input.canvas_url, account);
  const token = input.access_token ?? creds!.token;
  const requested = input.courses ? coursesKey(input.courses.map((c) => c.id)) : null;
  const cache = explicit ? undefined : await findCache(ctx.db, userId);
  const remaining = async () => Math.max(0, LIMITS.forcedRefreshesPerDay - (await refreshesUsed(ctx.db, userId, day)));

  const cacheUsable =
    cache &&
    cache.connectionId === creds?.connectionId &&
    (requested === null
      ? cache.courses.every((c) => account.profile.courses.some((p) => p.id === c.id))
      : requested === cache.coursesKey) &&
    now.getTime() - cache.fetchedAt.getTime() < LIMITS.courseworkCacheMs;
  if (!input.force && !explicit && cache && cacheUsable) {
    return {
      coursework: cache.coursework,
      skipped_courses: cache.skippedCourses,
      courses: cache.courses,
      fetched_at: cache.fetchedAt.toISOString(),
      refreshes_remaining: await remaining(),
      source: 'cache',
    };
  }

  const counted = !!input.force || explicit;
  if (counted && (await takeRefresh(ctx.db, userId, day, LIMITS.forcedRefreshesPerDay)) === null) {
    throw new AppError(429, 'refresh_limit', cache ? MSG.coursework.limitReached : MSG.coursework.limitReachedNoLoad);
  }

  const load = async () => {
    const client = newClient(lms, userId, url, token);
    let courses: CourseRef[];
    if (input.courses) courses = input.courses.map((c) => ({ id: c.id, name: c.name }));
    else {
      // The profile's courses that are active Canvas courses of this token, with Canvas's names.
      const active = new Map((await client.listActiveCourses()).map((c) => [String(c.id), c.name.trim()]));
      courses = account.profile.courses
        .filter((c) => active.has(c.id))
        .map((c) => ({ id: c.id, name: active.get(c.id)! }))
        .slice(0, LIMITS.lmsMaxCourses);
    }
    const result = await fetchCoursework(
      client,
      courses.map((c) => c.id),
    );
    return { courses, result };
  };

  let loaded: { courses: CourseRef[]; result: CourseworkResult };
  try {
    if (counted) loaded = await load();
    else {
      // Identical loads at the same moment (two tabs) share one trip to Canvas.
      const key = `${userId}:${creds!.connectionId}:${requested ?? '*'}`;
      let pending = state.loads.get(key) as Promise<typeof loaded> | undefined;
      if (!pending) {
        pending = load().finally(() => state.loads.delete(key));
        state.loads.set(key, pending);
      }
      loaded = await pending;
    }
  } catch (err) {
    if (counted) await returnRefresh(ctx.db, userId, day);
    ctx.log.warn({ userId, err: describe(err) }, 'coursework load from Canvas failed');
    throw canvasAppError(err);
  }

  const fetchedAt = state.now();
  if (!explicit) {
    await saveCache(ctx.db, {
      userId,
      connectionId: creds!.connectionId,
      coursesKey: coursesKey(loaded.courses.map((c) => c.id)),
      courses: loaded.courses,
      coursework: loaded.result.coursework,
      skippedCourses: loaded.result.skipped_courses,
      fetchedAt,
    });
    // A re-load that no longer holds a course takes the student out of its hot groups at once.
    await coursesChanged(ctx, userId);
  }
  return {
    coursework: loaded.result.coursework,
    skipped_courses: loaded.result.skipped_courses,
    courses: loaded.courses,
    fetched_at: fetchedAt.toISOString(),
    refreshes_remaining: await remaining(),
    source: 'canvas',
  };
}

/** For other features (calendar export): the user's coursework as last loaded from Canvas; null when never loaded. */
export async function cachedCoursework(ctx: AppContext, userId: string): Promise<CourseworkItem[] | null> {
  return (await findCache(ctx.db, userId))?.coursework ?? null;
}

/** For other features (search): the coursework as last loaded and the courses it covers; null when never loaded. */
export async function cachedCourseworkAndCourses(
  ctx: AppContext,
  userId: string,
): Promise<{ coursework: CourseworkItem[]; courses: { id: string; name: string }[] } | null> {
  const cache = await findCache(ctx.db, userId);
  return cache ? { coursework: cache.coursework, courses: cache.courses } : null;
}

/** SQL other features embed in one-statement queries (hot groups: who holds a course). */
export const courseworkSql = { holdsCourse: holdsCourseSql, itemName: itemNameSql };
