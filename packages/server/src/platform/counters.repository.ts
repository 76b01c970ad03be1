import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/connect.ts';
import { rateLimits } from '../db/schema/platform.ts';

/**
 * Fixed-window counters in the shared `rate_limits` table, so every app instance sees the same counts: the
 * quotas (platform/quota.ts) and the sign-in limits of the accounts feature count here. Keys are hashes.
 */

export interface Counter {
  key: string;
  count: number;
  windowEndsAt: Date;
}

const atSql = (at: Date) => sql`${at.toISOString()}::timestamptz`;
const expiredAt = (at: Date) => sql`${rateLimits.windowEndsAt} <= ${atSql(at)}`;

/**
 * Counts one more in the fixed window of `key` (a new window of `windowMs` starts when the last one ended) and
 * answers the count: one atomic upsert, so concurrent attempts can never slip past a limit.
 */
export async function bumpCounter(db: Db, key: string, at: Date, windowMs: number): Promise<Counter> {
  const expired = expiredAt(at);
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowEndsAt: new Date(at.getTime() + windowMs) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowEndsAt: sql`case when ${expired} then excluded.window_ends_at else ${rateLimits.windowEndsAt} end`,
      },
    })
    .returning({ count: rateLimits.count, windowEndsAt: rateLimits.windowEndsAt });
  return { key, count: row!.count, windowEndsAt: row!.windowEndsAt };
}

/** Takes back what `bumpCounter` counted, unless its window has ended since. */
export async function refundCounter(db: Db, c: Counter): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, c.key), eq(rateLimits.windowEndsAt, c.windowEndsAt)));
}

/**
 * Adds `amount` to the window of `key` only when the sum stays within `limit` (one atomic upsert, so concurrent
 * requests can never slip past it); false when it would not.
 */
export async function addWithinLimit(
  db: Db,
  key: string,
  amount: number,
  limit: number,
  at: Date,
  windowMs: number,
): Promise<boolean> {
  const expired = expiredAt(at);
  const next = sql`case when ${expired} then 0 else ${rateLimits.count} end + ${amount}`;
  const rows = await db
    .insert(rateLimits)
    .values({ key, count: amount, windowEndsAt: new Date(at.getTime() + windowMs) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: next,
        windowEndsAt: sql`case when ${expired} then excluded.window_ends_at else ${rateLimits.windowEndsAt} end`,
      },
      setWhere: sql`${next} <= ${limit}`,
    })
    .returning({ count: rateLimits.count });
  return rows.length > 0;
}

/** Takes `amount` off the current count of `key` (never below zero). */
export async function subtractCounter(db: Db, key: string, amount: number): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - ${amount}, 0)` })
    .where(eq(rateLimits.key, key));
}

export async function readCounters(db: Db, keys: string[]): Promise<Counter[]> {
  if (!keys.length) return [];
  return db.select().from(rateLimits).where(inArray(rateLimits.key, keys));
}

/** Sets a counter outright (e.g. a lock that lasts until `windowEndsAt`). */
export async function setCounter(db: Db, key: string, count: number, windowEndsAt: Date): Promise<void> {
  await db
    .insert(rateLimits)
    .values({ key, count, windowEndsAt })
    .onConflictDoUpdate({ target: rateLimits.key, set: { count, windowEndsAt } });
}

export async function deleteCounters(db: Db, keys: string[]): Promise<void> {
  if (keys.length) await db.delete(rateLimits).where(inArray(rateLimits.key, keys));
}

/** Now and then, forget windows that ended long ago. */
export async function forgetOldCounters(db: Db, at: Date): Promise<void> {
  if (Math.random() < 0.02) {
    await db.delete(rateLimits).where(lt(rateLimits.windowEndsAt, new Date(at.getTime() - 3_600_000)));
  }
}
