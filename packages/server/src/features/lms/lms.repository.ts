import { and, eq, lt, sql, type SQL } from 'drizzle-orm';
import { COURSEWORK_TYPES, type CourseworkItem, type SkippedCourse } from '@studybuddy/shared/lms';
import type { Db } from '../../db/connect.ts';
import { courseworkCache, lmsConnections, lmsRefreshCounts } from '../../db/schema/lms.ts';
import type { CourseRef } from './course-merge.ts';

/** The stored Canvas link ('' fields when not connected). */
export interface StoredLink {
  canvasUrl: string;
  /** The encrypted token box. */
  tokenBox: string;
}

export async function findLink(db: Db, userId: string): Promise<StoredLink> {
  const [row] = await db
    .select({ canvasUrl: lmsConnections.canvasUrl, tokenBox: lmsConnections.canvasAccessToken })
    .from(lmsConnections)
    .where(eq(lmsConnections.userId, userId))
    .limit(1);
  return row ?? { canvasUrl: '', tokenBox: '' };
}

/** Stores the Canvas address and encrypted token, and drops the coursework cached with the old ones. */
export async function saveLink(db: Db, userId: string, link: StoredLink): Promise<void> {
  const values = { canvasUrl: link.canvasUrl, canvasAccessToken: link.tokenBox, updatedAt: new Date() };
  await db
    .insert(lmsConnections)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: lmsConnections.userId, set: values });
  await db.delete(courseworkCache).where(eq(courseworkCache.userId, userId));
}

/** Forgets the Canvas address and token and deletes the cached coursework. */
export async function deleteLink(db: Db, userId: string): Promise<void> {
  await db.delete(lmsConnections).where(eq(lmsConnections.userId, userId));
  await db.delete(courseworkCache).where(eq(courseworkCache.userId, userId));
}

export type CacheRow = typeof courseworkCache.$inferSelect;

export async function findCache(db: Db, userId: string): Promise<CacheRow | undefined> {
  const [row] = await db.select().from(courseworkCache).where(eq(courseworkCache.userId, userId)).limit(1);
  return row;
}

export async function saveCache(
  db: Db,
  row: {
    userId: string;
    connectionId: string;
    coursesKey: string;
    courses: CourseRef[];
    coursework: CourseworkItem[];
    skippedCourses: SkippedCourse[];
    fetchedAt: Date;
  },
): Promise<void> {
  const { userId: _userId, ...rest } = row;
  await db.insert(courseworkCache).values(row).onConflictDoUpdate({ target: courseworkCache.userId, set: rest });
}

export async function refreshesUsed(db: Db, userId: string, day: string): Promise<number> {
  const [row] = await db
    .select({ count: lmsRefreshCounts.count })
    .from(lmsRefreshCounts)
    .where(and(eq(lmsRefreshCounts.userId, userId), eq(lmsRefreshCounts.day, day)));
  return row?.count ?? 0;
}

/** Takes one forced refresh of the day atomically; the new count, or null when `limit` were already used. */
export async function takeRefresh(db: Db, userId: string, day: string, limit: number): Promise<number | null> {
  const rows = await db
    .insert(lmsRefreshCounts)
    .values({ userId, day, count: 1 })
    .onConflictDoUpdate({
      target: [lmsRefreshCounts.userId, lmsRefreshCounts.day],
      set: { count: sql`${lmsRefreshCounts.count} + 1` },
      setWhere: sql`${lmsRefreshCounts.count} < ${limit}`,
    })
    .returning({ count: lmsRefreshCounts.count });
  // Days long past are no longer needed.
  await db
    .delete(lmsRefreshCounts)
    .where(and(eq(lmsRefreshCounts.userId, userId), lt(lmsRefreshCounts.day, pastDay(day))));
  return rows[0]?.count ?? null;
}

/** Gives back a refresh whose load from Canvas failed. */
export async function returnRefresh(db: Db, userId: string, day: string): Promise<void> {
  await db
    .update(lmsRefreshCounts)
    .set({ count: sql`${lmsRefreshCounts.count} - 1` })
    .where(and(eq(lmsRefreshCounts.userId, userId), eq(lmsRefreshCounts.day, day), sql`${lmsRefreshCounts.count} > 0`));
}

function pastDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 3);
  return d.toISOString().slice(0, 10);
}

/*
 * SQL for other features' one-statement queries (hot groups): whether a student's imported coursework holds a
 * course, and an item's name there. `userId` is an SQL expression of the caller's statement.
 */

/**
 * True when Canvas vouched for the course in the student's coursework cache: it lists one of the course's items,
 * or lists the course and Canvas answered at least one of its lists. A course the client named in the load
 * (`courses`) that Canvas refused entirely (not the student's: 401/403/404 for every list) does not count.
 */
export function holdsCourseSql(userId: SQL, courseId: string): SQL<boolean> {
  const course = JSON.stringify([{ id: courseId }]);
  const itemOf = JSON.stringify([{ course_id: courseId }]);
  const refused = JSON.stringify([{ course_id: courseId, skipped_types: COURSEWORK_TYPES }]);
  return sql<boolean>`exists (select 1 from ${courseworkCache} hc where hc.user_id = ${userId}
    and (hc.coursework @> ${itemOf}::jsonb
      or (hc.courses @> ${course}::jsonb and not hc.skipped_courses @> ${refused}::jsonb)))`;
}

/** The title of a coursework item in the student's coursework cache (null when it is not there). */
export function itemNameSql(userId: SQL, courseId: string, itemId: string): SQL<string | null> {
  const item = JSON.stringify({ id: itemId, course_id: courseId });
  return sql<string | null>`(select e->>'name' from ${courseworkCache} ic
    cross join lateral jsonb_array_elements(ic.coursework) e
    where ic.user_id = ${userId} and e @> ${item}::jsonb limit 1)`;
}
