import { and, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { connections } from '../../db/schema/social.ts';

/** Friendships: one `connections` row per direction, so "my friends" is one indexed lookup. */

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  const [row] = await db
    .select({ id: connections.friendId })
    .from(connections)
    .where(and(eq(connections.userId, a), eq(connections.friendId, b)))
    .limit(1);
  return !!row;
}

/** Each is added to the other's connections (one row per direction); existing rows are kept. */
export async function addFriendship(db: Db, a: string, b: string): Promise<void> {
  await db
    .insert(connections)
    .values([
      { userId: a, friendId: b },
      { userId: b, friendId: a },
    ])
    .onConflictDoNothing();
}

/** Removes each from the other's connections; returns how many rows went (0 when they were not friends). */
export async function removeFriendship(db: Db, a: string, b: string): Promise<number> {
  const gone = await db
    .delete(connections)
    .where(
      or(
        and(eq(connections.userId, a), eq(connections.friendId, b)),
        and(eq(connections.userId, b), eq(connections.friendId, a)),
      ),
    )
    .returning({ id: connections.userId });
  return gone.length;
}

export async function friendIds(db: Db, userId: string): Promise<string[]> {
  const found = await db.select({ id: connections.friendId }).from(connections).where(eq(connections.userId, userId));
  return found.map((r) => r.id);
}

/** Which of `ids` are friends of the user. */
export async function friendsAmong(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: connections.friendId })
    .from(connections)
    .where(and(eq(connections.userId, userId), inArray(connections.friendId, ids)));
  return new Set(rows.map((r) => r.id));
}

/**
 * The user's friends, newest friendship first, with the rank of their friendship's time (equal times share a
 * rank). The connection rows are written in the accept transaction, so their createdAt is the acceptedAt.
 */
export async function friendsByRecency(db: Db, userId: string): Promise<{ id: string; rank: number }[]> {
  return db
    .select({
      id: connections.friendId,
      rank: sql<number>`dense_rank() over (order by ${connections.createdAt} desc)`.mapWith(Number),
    })
    .from(connections)
    .where(eq(connections.userId, userId))
    .orderBy(desc(connections.createdAt));
}

/*
 * SQL for other features' one-statement queries (the chat batch write, resync, chat lists). The user ids are
 * SQL expressions of the caller's statement.
 */

/** True when `b` is a friend of `a`. */
export const areFriendsSql = (a: SQL, b: SQL) =>
  sql<boolean>`exists (select 1 from ${connections} c where c.user_id = ${a} and c.friend_id = ${b})`;
