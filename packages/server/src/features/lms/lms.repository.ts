import { and, eq, lt, sql } from 'drizzle-orm';
import type { CourseworkItem, SkippedCourse } from '@studybuddy/shared/lms';
import type { Db } from '../../db/connect.ts';
import { courseworkCache, lmsRefreshCounts, profiles, type CourseRef } from '../../db/schema.ts';
import { profiles as profileOwner } from '../profile/profiles.service.ts';
import { withTransaction } from '../../db/transaction.ts';

export interface StoredCanvas {
  email: string;
  canvasUrl: string;
  /** The encrypted token box ('' when not connected). */
  tokenBox: string;
  courses: CourseRef[];
}

export async function findCanvasProfile(db: Db, userId: string): Promise<StoredCanvas | undefined> {
  const [row] = await db
    .select({
      email: profiles.email,
      canvasUrl: profiles.canvasUrl,
      tokenBox: profiles.canvasAccessToken,
      courses: profiles.courses,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row;
}

/** Stores the Canvas address and encrypted token, the merged courses, and drops the old coursework cache. */
export async function saveConnection(
  db: Db,
  userId: string,
  values: { canvasUrl: string; tokenBox: string; courses: CourseRef[] },
): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const updated = await tx
      .update(profiles)
      .set({
        canvasUrl: values.canvasUrl,
        canvasAccessToken: values.tokenBox,
        updatedAt: new Date(),
      })
      .where(eq(profiles.userId, userId))
      .returning({ userId: profiles.userId });
    if (!updated.length) return false;
    await profileOwner.setCourses(tx, userId, values.courses);
    await tx.delete(courseworkCache).where(eq(courseworkCache.userId, userId));
    return true;
  });
}

/** Clears the Canvas address and token and deletes the cached coursework (the imported courses stay). */
export async function clearConnection(db: Db, userId: string): Promise<void> {
  await withTransaction(db, async (tx) => {
    await tx
      .update(profiles)
      .set({ canvasUrl: '', canvasAccessToken: '', updatedAt: new Date() })
      .where(eq(profiles.userId, userId));
    await tx.delete(courseworkCache).where(eq(courseworkCache.userId, userId));
  });
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
