import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';
import { scheduleBusy, scheduleImports, scheduleOverrides, scheduleWeeks } from '../../db/schema/schedule.ts';

export interface WeekRow {
  userId: string;
  timeZone: string;
  cells: string;
}

export async function weeksOf(db: Db, userIds: readonly string[]): Promise<WeekRow[]> {
  if (!userIds.length) return [];
  return db
    .select({ userId: scheduleWeeks.userId, timeZone: scheduleWeeks.timeZone, cells: scheduleWeeks.cells })
    .from(scheduleWeeks)
    .where(inArray(scheduleWeeks.userId, [...userIds]));
}

/** The ranking's bits and the Monday they start at ('YYYY-MM-DD'). */
export interface RankRow {
  utcFree: string;
  utcFrom: string;
}

export async function saveWeek(db: Db, row: WeekRow & RankRow): Promise<void> {
  const now = new Date();
  await db
    .insert(scheduleWeeks)
    .values({ ...row, updatedAt: now })
    .onConflictDoUpdate({
      target: scheduleWeeks.userId,
      set: { timeZone: row.timeZone, cells: row.cells, utcFree: row.utcFree, utcFrom: row.utcFrom, updatedAt: now },
    });
}

export async function setUtcFree(db: Db, userId: string, rank: RankRow): Promise<void> {
  await db.update(scheduleWeeks).set(rank).where(eq(scheduleWeeks.userId, userId));
}

/** Students whose ranking bits start before the Monday `monday` (the daily refresh's next batch). */
export async function staleRankUsers(db: Db, monday: string, limit: number): Promise<string[]> {
  const found = await db
    .select({ userId: scheduleWeeks.userId })
    .from(scheduleWeeks)
    .where(lt(scheduleWeeks.utcFrom, monday))
    .limit(limit);
  return found.map((r) => r.userId);
}

export interface BusyRow {
  userId: string;
  key: string;
  seriesKey: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
  overridden: boolean;
}

const overridden = sql<boolean>`EXISTS (SELECT 1 FROM schedule_overrides o
  WHERE o.user_id = ${scheduleBusy.userId} AND o.key IN (${scheduleBusy.key}, ${scheduleBusy.seriesKey}))`;

/** Busy occurrences of the students overlapping [from, to), with whether each is overridden. */
export async function busyOf(db: Db, userIds: readonly string[], from: Date, to: Date): Promise<BusyRow[]> {
  if (!userIds.length) return [];
  return db
    .select({
      userId: scheduleBusy.userId,
      key: scheduleBusy.key,
      seriesKey: scheduleBusy.seriesKey,
      title: scheduleBusy.title,
      startsAt: scheduleBusy.startsAt,
      endsAt: scheduleBusy.endsAt,
      overridden,
    })
    .from(scheduleBusy)
    .where(
      and(inArray(scheduleBusy.userId, [...userIds]), lt(scheduleBusy.startsAt, to), gte(scheduleBusy.endsAt, from)),
    )
    .orderBy(scheduleBusy.startsAt);
}

export interface NewBusy {
  key: string;
  seriesKey: string;
  title: string;
  startsAt: Date;
  endsAt: Date;
}

/** Replaces the student's imported busy times (the caller's transaction keeps the old ones on failure). */
export async function replaceBusy(db: Db, userId: string, events: readonly NewBusy[]): Promise<void> {
  await db.delete(scheduleBusy).where(eq(scheduleBusy.userId, userId));
  for (let i = 0; i < events.length; i += 500) {
    await db
      .insert(scheduleBusy)
      .values(events.slice(i, i + 500).map((e) => ({ ...e, userId })))
      .onConflictDoNothing();
  }
}

export async function busyCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduleBusy)
    .where(eq(scheduleBusy.userId, userId));
  return row?.n ?? 0;
}

export type ImportRow = typeof scheduleImports.$inferSelect;

export async function findImport(db: Db, userId: string): Promise<ImportRow | null> {
  const [row] = await db.select().from(scheduleImports).where(eq(scheduleImports.userId, userId));
  return row ?? null;
}

export async function saveImport(db: Db, row: ImportRow): Promise<void> {
  await db
    .insert(scheduleImports)
    .values(row)
    .onConflictDoUpdate({
      target: scheduleImports.userId,
      set: { kind: row.kind, source: row.source, lastImportAt: row.lastImportAt, lastError: row.lastError },
    });
}

export async function setImportError(db: Db, userId: string, lastError: string): Promise<void> {
  await db.update(scheduleImports).set({ lastError }).where(eq(scheduleImports.userId, userId));
}

export async function deleteImport(db: Db, userId: string): Promise<void> {
  await db.delete(scheduleImports).where(eq(scheduleImports.userId, userId));
  await db.delete(scheduleBusy).where(eq(scheduleBusy.userId, userId));
}

export async function setOverride(db: Db, userId: string, key: string, free: boolean): Promise<void> {
  if (free) await db.insert(scheduleOverrides).values({ userId, key }).onConflictDoNothing();
  else
    await db.delete(scheduleOverrides).where(and(eq(scheduleOverrides.userId, userId), eq(scheduleOverrides.key, key)));
}

export async function overrideCount(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(scheduleOverrides)
    .where(eq(scheduleOverrides.userId, userId));
  return row?.n ?? 0;
}

/** Whether the student has an occurrence or series of that key among their imported busy times. */
export async function hasBusyKey(db: Db, userId: string, key: string): Promise<boolean> {
  const found = await rows<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM schedule_busy WHERE user_id = ${userId} AND (key = ${key} OR series_key = ${key}) LIMIT 1`,
  );
  return found.length > 0;
}

/** Students with an address to re-read (the daily job's list). */
export async function urlImportUsers(db: Db): Promise<string[]> {
  const found = await db
    .select({ userId: scheduleImports.userId })
    .from(scheduleImports)
    .where(eq(scheduleImports.kind, 'url'));
  return found.map((r) => r.userId);
}

/** A row's bits (`sw`) moved to start at the Monday `monday` (whole weeks; what is past drops out). */
const alignedSql = (monday: string) =>
  sql`(CASE WHEN sw.utc_from >= ${monday}::date THEN sw.utc_free
    ELSE sw.utc_free << (336 * ((${monday}::date - sw.utc_from) / 7)) END)`;

/**
 * Shared free half hours between the student and the row's user (`userIdColumn`) over the three weeks from the Monday
 * `monday`: a scalar other features may embed; 0 when either has no week.
 */
export const freeOverlapSql = (viewerId: string, userIdColumn: SQL, monday: string): SQL =>
  sql`COALESCE((SELECT bit_count(${alignedSql(monday)} & (SELECT ${alignedSql(monday)} FROM schedule_weeks sw
      WHERE sw.user_id = ${viewerId}))::int FROM schedule_weeks sw WHERE sw.user_id = ${userIdColumn}), 0)`;

/** The ranking bits of the viewer and others (free-together labels, study group suggestions). */
export async function utcWeeksOf(db: Db, userIds: readonly string[]): Promise<({ userId: string } & RankRow)[]> {
  if (!userIds.length) return [];
  return db
    .select({ userId: scheduleWeeks.userId, utcFree: scheduleWeeks.utcFree, utcFrom: scheduleWeeks.utcFrom })
    .from(scheduleWeeks)
    .where(inArray(scheduleWeeks.userId, [...userIds]));
}

/** The viewer's ranking bits, or null without a week. */
export async function utcWeekOf(db: Db, userId: string): Promise<RankRow | null> {
  const [row] = await utcWeeksOf(db, [userId]);
  return row ?? null;
}

/**
 * Shared free half hours of a row's user (`userIdColumn`) with the given bits (the viewer's, from the Monday
 * `monday`, already cut to the window); 0 without a week.
 */
export const freeWithBitsSql = (bits: string, monday: string, userIdColumn: SQL): SQL =>
  sql`COALESCE((SELECT bit_count(${alignedSql(monday)} & ${bits}::bit(1008))::int FROM schedule_weeks sw
    WHERE sw.user_id = ${userIdColumn}), 0)`;
