import { and, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { deleteIfPresent, insertIfAbsent } from '../../db/rows.ts';
import { blocks } from '../../db/schema/social.ts';

/** Blocks (issue 24): one row per student who blocked another. */

/** Adds the block; false when it existed already. */
export async function insertBlock(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  return insertIfAbsent(db, blocks, { blockerId, blockedId });
}

/** Removes the block; false when there was none. */
export async function deleteBlock(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  return deleteIfPresent(db, blocks, and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)));
}

export async function hasBlocked(db: Db, blockerId: string, blockedId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: blocks.blockedId })
    .from(blocks)
    .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
    .limit(1);
  return !!row;
}

/** Everyone the user blocked or was blocked by (each once). */
export async function hiddenFrom(db: Db, userId: string): Promise<string[]> {
  const found = await db
    .select({ blockerId: blocks.blockerId, blockedId: blocks.blockedId })
    .from(blocks)
    .where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
  return [...new Set(found.map((r) => (r.blockerId === userId ? r.blockedId : r.blockerId)))];
}

/** The students the user blocked, newest block first. */
export async function blockedBy(db: Db, blockerId: string): Promise<{ id: string; createdAt: Date }[]> {
  return db
    .select({ id: blocks.blockedId, createdAt: blocks.createdAt })
    .from(blocks)
    .where(eq(blocks.blockerId, blockerId))
    .orderBy(desc(blocks.createdAt), blocks.blockedId);
}

/*
 * SQL for other features' one-statement queries (the chat batch write, unread counts). The user ids are SQL
 * expressions of the caller's statement.
 */

/** True when `blocker` blocked `blocked`. */
export const hasBlockedSql = (blocker: SQL, blocked: SQL) =>
  sql<boolean>`exists (select 1 from ${blocks} b where b.blocker_id = ${blocker} and b.blocked_id = ${blocked})`;

/** The ids of everyone who blocked `blocked`, as a text[]. */
export const blockersOfSql = (blocked: SQL) =>
  sql<string[]>`array(select b.blocker_id from ${blocks} b where b.blocked_id = ${blocked})`;
