import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';
import { friendRequests } from '../../db/schema/social.ts';

export type FriendRequestRow = typeof friendRequests.$inferSelect;

/**
 * Serialises every request change between two students (in either direction) until the transaction ends, so two
 * people asking each other at the same moment are handled one after the other (the second becomes an accept).
 */
export async function lockPair(tx: Db, a: string, b: string): Promise<void> {
  const key = a < b ? `${a}:${b}` : `${b}:${a}`;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${'friend:' + key}, 0))`);
}

export async function findRequest(db: Db, id: string): Promise<FriendRequestRow | undefined> {
  const [row] = await db.select().from(friendRequests).where(eq(friendRequests.id, id)).limit(1);
  return row;
}

export async function findPending(db: Db, fromUserId: string, toUserId: string): Promise<FriendRequestRow | undefined> {
  const [row] = await db
    .select()
    .from(friendRequests)
    .where(
      and(
        eq(friendRequests.fromUserId, fromUserId),
        eq(friendRequests.toUserId, toUserId),
        eq(friendRequests.status, 'pending'),
      ),
    )
    .limit(1);
  return row;
}

export async function insertPending(db: Db, fromUserId: string, toUserId: string): Promise<string> {
  const id = randomUUID();
  await db.insert(friendRequests).values({ id, fromUserId, toUserId, status: 'pending' });
  return id;
}

/** Pending → accepted with acceptedAt; false when it was no longer pending. */
export async function markAccepted(db: Db, id: string): Promise<boolean> {
  const done = await db
    .update(friendRequests)
    .set({ status: 'accepted', acceptedAt: sql`now()` })
    .where(and(eq(friendRequests.id, id), eq(friendRequests.status, 'pending')))
    .returning({ id: friendRequests.id });
  return done.length > 0;
}

export async function markDeclined(db: Db, id: string): Promise<boolean> {
  const done = await db
    .update(friendRequests)
    .set({ status: 'declined' })
    .where(and(eq(friendRequests.id, id), eq(friendRequests.status, 'pending')))
    .returning({ id: friendRequests.id });
  return done.length > 0;
}

/** Unsend: the pending request is deleted (requirements §4). */
export async function deletePending(db: Db, id: string): Promise<boolean> {
  const done = await db
    .delete(friendRequests)
    .where(and(eq(friendRequests.id, id), eq(friendRequests.status, 'pending')))
    .returning({ id: friendRequests.id });
  return done.length > 0;
}

export interface IncomingRow {
  id: string;
  viewed: boolean;
  createdAt: Date;
  fromUserId: string;
}

/** Pending requests addressed to `userId`, newest first. */
export async function listIncoming(db: Db, userId: string): Promise<IncomingRow[]> {
  return db
    .select({
      id: friendRequests.id,
      viewed: friendRequests.viewed,
      createdAt: friendRequests.createdAt,
      fromUserId: friendRequests.fromUserId,
    })
    .from(friendRequests)
    .where(and(eq(friendRequests.toUserId, userId), eq(friendRequests.status, 'pending')))
    .orderBy(desc(friendRequests.createdAt), desc(friendRequests.id));
}

/** The viewed flag becomes true for every pending request to `userId`; returns how many changed. */
export async function markAllViewed(db: Db, userId: string): Promise<number> {
  const done = await db
    .update(friendRequests)
    .set({ viewed: true })
    .where(
      and(eq(friendRequests.toUserId, userId), eq(friendRequests.status, 'pending'), eq(friendRequests.viewed, false)),
    )
    .returning({ id: friendRequests.id });
  return done.length;
}

export async function countIncoming(db: Db, userId: string): Promise<{ pending: number; unviewed: number }> {
  const [row] = await rows<{ pending: number; unviewed: number }>(
    db,
    sql`SELECT count(*)::int AS pending, count(*) FILTER (WHERE NOT viewed)::int AS unviewed
        FROM friend_requests WHERE to_user_id = ${userId} AND status = 'pending'`,
  );
  return row ?? { pending: 0, unviewed: 0 };
}

/** Is there a pending request between the two, in either direction? */
export async function pendingBetween(db: Db, a: string, b: string): Promise<boolean> {
  const found = await rows<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM friend_requests WHERE status = 'pending'
        AND ((from_user_id = ${a} AND to_user_id = ${b}) OR (from_user_id = ${b} AND to_user_id = ${a})) LIMIT 1`,
  );
  return found.length > 0;
}

/** The pending requests between the viewer and each of `userIds`: the one sent to them, the one received. */
export async function pendingWith(
  db: Db,
  viewerId: string,
  userIds: string[],
): Promise<{ sent: Map<string, string>; received: Map<string, string> }> {
  const sent = new Map<string, string>();
  const received = new Map<string, string>();
  if (!userIds.length) return { sent, received };
  const [out, into] = await Promise.all([
    db
      .select({ id: friendRequests.id, other: friendRequests.toUserId })
      .from(friendRequests)
      .where(
        and(
          eq(friendRequests.fromUserId, viewerId),
          inArray(friendRequests.toUserId, userIds),
          eq(friendRequests.status, 'pending'),
        ),
      ),
    db
      .select({ id: friendRequests.id, other: friendRequests.fromUserId })
      .from(friendRequests)
      .where(
        and(
          eq(friendRequests.toUserId, viewerId),
          inArray(friendRequests.fromUserId, userIds),
          eq(friendRequests.status, 'pending'),
        ),
      ),
  ]);
  for (const r of out) sent.set(r.other, r.id);
  for (const r of into) received.set(r.other, r.id);
  return { sent, received };
}

/** Deletes the pending requests between the two, in either direction (a block withdraws them); their ids. */
export async function deletePendingBetween(db: Db, a: string, b: string): Promise<string[]> {
  const gone = await db
    .delete(friendRequests)
    .where(
      and(
        eq(friendRequests.status, 'pending'),
        or(
          and(eq(friendRequests.fromUserId, a), eq(friendRequests.toUserId, b)),
          and(eq(friendRequests.fromUserId, b), eq(friendRequests.toUserId, a)),
        ),
      ),
    )
    .returning({ id: friendRequests.id });
  return gone.map((r) => r.id);
}
