/**
 * Free time (issue 27 parts 1, 2 and 5). What other features may call (study sessions build on these):
 *
 * - `studentsOverlap(ctx, { studentIds, from?, days?, lengthMinutes, skipDueHours?, courseId? })` →
 *   `StudentsOverlap`: for any set of students and a window (default: from the next half hour, 14 days), how many
 *   are free in each 30-minute cell (`counts`, UTC instants from `windowStart`) and the three best slots of the
 *   length asked for (`slots`). Counts only: never whose cells, never event titles. No access check: the caller
 *   decides whose overlap the viewer may see.
 * - `findATimeForGroup(ctx, viewerId, groupId, query)` / `findATimeWithFriend(ctx, viewerId, friendId, query)` →
 *   `FindATimeResult` (@studybuddy/shared/schedule), with the membership / friendship checks; the routes
 *   `GET /api/groups/:groupId/find-a-time` and `GET /api/friends/:friendId/find-a-time` answer them.
 * - `scheduleSql.freeOverlap(viewerId, userIdColumn, monday)`: free half hours in common, as an embeddable scalar;
 *   `freeTogether(ctx, viewerId, otherIds)`: the "free together: Tue 14:00–16:00" block of each other student.
 */
import type { SQL } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import {
  SCHEDULE_LIMITS,
  type FindATimeQuery,
  type FindATimeResult,
  type FreeTogether,
  type MySchedule,
  type SaveWeekInput,
} from '@studybuddy/shared/schedule';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { getGroup } from '../groups/groups.service.ts';
import { hotGroupParts } from '../groups/hot-group-access.service.ts';
import { cachedCoursework } from '../lms/coursework.service.ts';
import { friendships } from '../social/friendships.service.ts';
import { bestSlots, overlapCounts, type Slot } from './overlap.ts';
import * as repo from './schedule.repository.ts';
import { CELL_MS, freeCells, nextCellStart, type Interval } from './time-cells.ts';
import { alignBits, longestShared, RANK_CELLS, rankBits, thisUtcMonday, windowOnly } from './utc-week.ts';

const EMPTY_WEEK = '0'.repeat(SCHEDULE_LIMITS.cellsPerWeek);
const HOUR_MS = 3_600_000;

export interface OverlapRequest {
  studentIds: readonly string[];
  /** Window start; rounded up to the next half hour. Default: now. */
  from?: Date;
  days?: number;
  lengthMinutes: number;
  /** Hours before each student's due dates of `courseId` that count as busy (0 or absent: off). */
  skipDueHours?: number;
  courseId?: string | null;
  /** How many slots to propose (default 3). */
  proposals?: number;
}

export interface StudentsOverlap {
  windowStart: Date;
  cellMinutes: number;
  memberCount: number;
  counts: number[];
  slots: Slot[];
  dueDatesSkipped: boolean;
}

/** Busy intervals per student from their imports, overrides left out. */
async function busyIntervals(ctx: AppContext, ids: readonly string[], from: Date, to: Date) {
  const byUser = new Map<string, Interval[]>();
  for (const b of await repo.busyOf(ctx.db, ids, from, to)) {
    if (b.overridden) continue;
    const list = byUser.get(b.userId) ?? [];
    list.push({ startMs: b.startsAt.getTime(), endMs: b.endsAt.getTime() });
    byUser.set(b.userId, list);
  }
  return byUser;
}

/** The hours before each student's own due dates of the course (read through the LMS feature's service). */
async function dueIntervals(ctx: AppContext, ids: readonly string[], courseId: string, hours: number) {
  const byUser = new Map<string, Interval[]>();
  await Promise.all(
    ids.map(async (id) => {
      const items = (await cachedCoursework(ctx, id)) ?? [];
      const list: Interval[] = [];
      for (const item of items) {
        if (item.course_id !== courseId || !item.due_date) continue;
        const due = Date.parse(item.due_date);
        if (Number.isFinite(due)) list.push({ startMs: due - hours * HOUR_MS, endMs: due });
      }
      byUser.set(id, list);
    }),
  );
  return byUser;
}

export async function studentsOverlap(ctx: AppContext, req: OverlapRequest): Promise<StudentsOverlap> {
  const ids = [...new Set(req.studentIds)];
  const startMs = nextCellStart((req.from ?? new Date()).getTime());
  const count = Math.round(((req.days ?? SCHEDULE_LIMITS.windowDays) * 86_400_000) / CELL_MS);
  const endMs = startMs + count * CELL_MS;
  const skip = req.skipDueHours && req.courseId ? req.skipDueHours : 0;
  const [weeks, busy, due] = await Promise.all([
    repo.weeksOf(ctx.db, ids),
    busyIntervals(ctx, ids, new Date(startMs), new Date(endMs)),
    skip ? dueIntervals(ctx, ids, req.courseId!, skip) : Promise.resolve(new Map<string, Interval[]>()),
  ]);
  const weekOf = new Map(weeks.map((w) => [w.userId, w]));
  const free = ids.map((id) => {
    const w = weekOf.get(id);
    const blocked = [...(busy.get(id) ?? []), ...(due.get(id) ?? [])];
    return freeCells(w?.cells ?? EMPTY_WEEK, w?.timeZone ?? 'UTC', startMs, count, blocked);
  });
  const lengthCells = Math.max(1, Math.round(req.lengthMinutes / SCHEDULE_LIMITS.cellMinutes));
  return {
    windowStart: new Date(startMs),
    cellMinutes: SCHEDULE_LIMITS.cellMinutes,
    memberCount: ids.length,
    counts: overlapCounts(free, count),
    slots: bestSlots(free, startMs, count, lengthCells, req.proposals ?? SCHEDULE_LIMITS.proposals),
    dueDatesSkipped: skip > 0,
  };
}

function toResult(o: StudentsOverlap, canSkipDueDates: boolean): FindATimeResult {
  return {
    windowStart: o.windowStart.toISOString(),
    cellMinutes: o.cellMinutes,
    memberCount: o.memberCount,
    counts: o.counts,
    slots: o.slots.map((s) => ({
      start: new Date(s.startMs).toISOString(),
      end: new Date(s.endMs).toISOString(),
      freeCount: s.freeCount,
      memberCount: s.memberCount,
    })),
    dueDatesSkipped: o.dueDatesSkipped,
    canSkipDueDates,
  };
}

/** Find a time in a group the viewer is a member of; a hot group's course gives the due dates to skip. */
export async function findATimeForGroup(
  ctx: AppContext,
  viewerId: string,
  groupId: string,
  query: FindATimeQuery,
  now = new Date(),
): Promise<FindATimeResult> {
  const group = await getGroup(ctx, viewerId, groupId);
  const courseId = hotGroupParts(groupId)?.courseId ?? null;
  const overlap = await studentsOverlap(ctx, {
    studentIds: group.members.map((m) => m.id),
    from: now,
    lengthMinutes: query.length,
    skipDueHours: query.skipDue,
    courseId,
  });
  return toResult(overlap, courseId !== null);
}

/** Find a time for two friends (their chat). */
export async function findATimeWithFriend(
  ctx: AppContext,
  viewerId: string,
  friendId: string,
  query: FindATimeQuery,
  now = new Date(),
): Promise<FindATimeResult> {
  if (friendId === viewerId || !(await friendships.areFriends(ctx.db, viewerId, friendId))) {
    throw forbidden(MSG.findTime.notFriends);
  }
  const overlap = await studentsOverlap(ctx, {
    studentIds: [viewerId, friendId],
    from: now,
    lengthMinutes: query.length,
  });
  return toResult(overlap, false);
}

/** Recomputes the student's ranking bits (the matching signal) from their week and busy times. */
export async function refreshUtcWeek(ctx: AppContext, userId: string, now = new Date()): Promise<void> {
  const [week] = await repo.weeksOf(ctx.db, [userId]);
  if (!week) return;
  await repo.setUtcFree(ctx.db, userId, await utcFreeOf(ctx, week, now));
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Three UTC weeks of free half hours from this week's Monday: Find a time's window from any moment of the week. */
async function utcFreeOf(ctx: AppContext, week: repo.WeekRow, now: Date): Promise<repo.RankRow> {
  const monday = thisUtcMonday(now.getTime());
  const busy = await busyIntervals(ctx, [week.userId], new Date(monday), new Date(monday + RANK_CELLS * CELL_MS));
  return { utcFree: rankBits(week.cells, week.timeZone, monday, busy.get(week.userId) ?? []), utcFrom: isoDay(monday) };
}

/** The daily refresh: recomputes the ranking bits that start before this week's Monday; how many it did. */
export async function refreshStaleRankings(ctx: AppContext, now = new Date(), batch = 200): Promise<number> {
  const monday = isoDay(thisUtcMonday(now.getTime()));
  let done = 0;
  for (;;) {
    const ids = await repo.staleRankUsers(ctx.db, monday, batch);
    for (const id of ids) await refreshUtcWeek(ctx, id, now);
    done += ids.length;
    if (ids.length < batch) return done;
  }
}

/** The student's own schedule: week, import state and busy blocks of the next two weeks (with titles: theirs). */
export async function mySchedule(ctx: AppContext, userId: string, now = new Date()): Promise<MySchedule> {
  const [week] = await repo.weeksOf(ctx.db, [userId]);
  const from = new Date(nextCellStart(now.getTime()) - CELL_MS);
  const to = new Date(from.getTime() + SCHEDULE_LIMITS.windowDays * 86_400_000);
  const [imp, busy, events] = await Promise.all([
    repo.findImport(ctx.db, userId),
    repo.busyOf(ctx.db, [userId], from, to),
    repo.busyCount(ctx.db, userId),
  ]);
  return {
    timeZone: week?.timeZone ?? 'UTC',
    cells: week?.cells ?? EMPTY_WEEK,
    saved: Boolean(week),
    import: {
      kind: imp?.kind ?? 'none',
      source: imp?.source ?? '',
      lastImportAt: imp?.lastImportAt?.toISOString() ?? null,
      lastError: imp?.lastError ?? null,
      events,
    },
    busy: busy.map((b) => ({
      key: b.key,
      seriesKey: b.seriesKey,
      title: b.title,
      start: b.startsAt.toISOString(),
      end: b.endsAt.toISOString(),
      overridden: b.overridden,
    })),
  };
}

export async function saveWeek(ctx: AppContext, userId: string, input: SaveWeekInput, now = new Date()) {
  const row = { userId, timeZone: input.timeZone, cells: input.cells };
  await repo.saveWeek(ctx.db, { ...row, ...(await utcFreeOf(ctx, row, now)) });
  return mySchedule(ctx, userId, now);
}

/** The override layer: an imported occurrence (or its whole series) marked free, or busy again. */
export async function setOverride(ctx: AppContext, userId: string, key: string, free: boolean, now = new Date()) {
  if (free) {
    if (!(await repo.hasBusyKey(ctx.db, userId, key))) throw badRequest(MSG.schedule.unknownBlock, 'key');
    if ((await repo.overrideCount(ctx.db, userId)) >= SCHEDULE_LIMITS.maxOverrides) {
      throw badRequest(MSG.schedule.tooManyOverrides, 'key');
    }
  }
  await repo.setOverride(ctx.db, userId, key, free);
  await refreshUtcWeek(ctx, userId, now);
  return mySchedule(ctx, userId, now);
}

/** The viewer's bits for ranking at `now`: aligned to this week's Monday and cut to Find a time's window. */
async function viewerWindow(ctx: AppContext, viewerId: string, now: Date) {
  const monday = thisUtcMonday(now.getTime());
  const row = await repo.utcWeekOf(ctx.db, viewerId);
  if (!row) return null;
  const bits = windowOnly(alignBits(row.utcFree, Date.parse(row.utcFrom), monday), monday, now.getTime());
  return { bits, monday };
}

/**
 * For each other student with a week: the longest block both are free within Find a time's window (the next two
 * weeks), told in the viewer's zone, or null.
 */
export async function freeTogether(
  ctx: AppContext,
  viewerId: string,
  otherIds: readonly string[],
  now = new Date(),
): Promise<Map<string, FreeTogether | null>> {
  const out = new Map<string, FreeTogether | null>();
  const mine = await viewerWindow(ctx, viewerId, now);
  if (!mine || !otherIds.length) return out;
  const [weeks, [viewerWeek]] = await Promise.all([
    repo.utcWeeksOf(ctx.db, otherIds),
    repo.weeksOf(ctx.db, [viewerId]),
  ]);
  const tz = viewerWeek?.timeZone ?? 'UTC';
  for (const w of weeks) {
    if (w.userId === viewerId) continue;
    const theirs = alignBits(w.utcFree, Date.parse(w.utcFrom), mine.monday);
    out.set(w.userId, longestShared(mine.bits, theirs, tz, mine.monday));
  }
  return out;
}

/** SQL other features embed in one-statement queries (free half hours in common over three weeks from a Monday). */
export const scheduleSql = { freeOverlap: repo.freeOverlapSql };

/**
 * The match finder's free-time signal (registered on ctx.registry.matchTiebreaks): shared free half hours in Find a
 * time's window (the next two weeks), as SQL over the viewer's bits (null when the viewer has no free time there).
 */
export function freeTimeTiebreak(ctx: AppContext) {
  return {
    async sqlFor(viewerId: string) {
      const mine = await viewerWindow(ctx, viewerId, new Date());
      if (!mine?.bits.includes('1')) return null;
      const monday = isoDay(mine.monday);
      return (userIdColumn: SQL) => repo.freeWithBitsSql(mine.bits, monday, userIdColumn);
    },
    details: (viewerId: string, candidateIds: string[]) => freeTogether(ctx, viewerId, candidateIds),
  };
}

/**
 * The schedule service of an app (built in schedule.feature.ts): my week and its overrides, Find a time, the match
 * ranking's free-time signal and the daily refresh of the ranking bits.
 */
export function createScheduleService(ctx: AppContext) {
  return {
    mine: (userId: string) => mySchedule(ctx, userId),
    saveWeek: (userId: string, input: SaveWeekInput) => saveWeek(ctx, userId, input),
    setOverride: (userId: string, key: string, free: boolean) => setOverride(ctx, userId, key, free),
    findATimeForGroup: (userId: string, groupId: string, query: FindATimeQuery) =>
      findATimeForGroup(ctx, userId, groupId, query),
    findATimeWithFriend: (userId: string, friendId: string, query: FindATimeQuery) =>
      findATimeWithFriend(ctx, userId, friendId, query),
    freeTimeTiebreak: freeTimeTiebreak(ctx),
    refreshStaleRankings: () => refreshStaleRankings(ctx),
  };
}

export type ScheduleService = ReturnType<typeof createScheduleService>;
