import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { GroupKind } from '@studybuddy/shared/groups';
import type { Db } from '../../db/connect.ts';
import { groupMembers, groups } from '../../db/schema/groups.ts';

/** Groups, hot groups and their members. */

export type GroupRow = typeof groups.$inferSelect;

const memberCount = sql<number>`(select count(*) from ${groupMembers} gm2 where gm2.group_id = ${groups.id})`.mapWith(
  Number,
);

/** The user's groups of one kind, the most recently active first, with their member counts. */
export async function groupsOf(db: Db, userId: string, kind: GroupKind) {
  return db
    .select({ group: groups, memberCount })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .where(eq(groups.kind, kind))
    .orderBy(desc(sql`coalesce(${groups.lastMessageTime}, ${groups.createdAt})`), asc(groups.id));
}

export async function findGroup(db: Db, id: string): Promise<{ group: GroupRow; memberCount: number } | undefined> {
  const [row] = await db.select({ group: groups, memberCount }).from(groups).where(eq(groups.id, id)).limit(1);
  return row;
}

/** Member ids in joining order. */
export async function membersInOrder(db: Db, groupId: string): Promise<string[]> {
  const rows = await db
    .select({ id: groupMembers.userId })
    .from(groupMembers)
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(groupMembers.joinedAt), asc(groupMembers.userId));
  return rows.map((r) => r.id);
}

export async function memberIds(db: Db, groupId: string): Promise<string[]> {
  const rows = await db.select({ id: groupMembers.userId }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
  return rows.map((r) => r.id);
}

export async function isMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

/** Locks the group's row until the transaction ends (membership changes of one group happen one at a time). */
export async function lockGroup(db: Db, groupId: string): Promise<GroupRow | undefined> {
  const [row] = await db.select().from(groups).where(eq(groups.id, groupId)).for('update').limit(1);
  return row;
}

export async function insertGroup(db: Db, values: typeof groups.$inferInsert): Promise<boolean> {
  const rows = await db
    .insert(groups)
    .values(values)
    .onConflictDoNothing({ target: groups.id })
    .returning({ id: groups.id });
  return rows.length > 0;
}

/** Adds members (those already in are left as they are); returns the ids that were added. */
export async function addMembers(db: Db, groupId: string, userIds: string[]): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await db
    .insert(groupMembers)
    .values(userIds.map((userId) => ({ groupId, userId })))
    .onConflictDoNothing()
    .returning({ id: groupMembers.userId });
  return rows.map((r) => r.id);
}

export async function removeMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .returning({ id: groupMembers.userId });
  return rows.length > 0;
}

/** True when the two students are members of one group together. */
export async function shareAGroup(db: Db, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(groupMembers)
    .where(and(eq(groupMembers.userId, a), isMemberSql(sql`${groupMembers.groupId}`, sql`${b}`)))
    .limit(1);
  return rows.length > 0;
}

export async function updateGroup(
  db: Db,
  groupId: string,
  values: Partial<Pick<typeof groups.$inferInsert, 'name' | 'createdBy'>>,
): Promise<void> {
  await db.update(groups).set(values).where(eq(groups.id, groupId));
}

export async function deleteGroup(db: Db, groupId: string): Promise<void> {
  await db.delete(groups).where(eq(groups.id, groupId));
}

/*
 * A group's conversation, for the chat feature's statements that must do it in one go (the batch write, a
 * resync, the search): the ids are SQL expressions of the caller's statement.
 */

export const isMemberSql = (groupId: SQL, userId: SQL) =>
  sql<boolean>`exists (select 1 from ${groupMembers} gm where gm.group_id = ${groupId} and gm.user_id = ${userId})`;

export const memberIdsSql = (groupId: SQL) =>
  sql<string[] | null>`(select array_agg(gm.user_id) from ${groupMembers} gm where gm.group_id = ${groupId})`;

export const groupIdsOfSql = (userId: SQL) =>
  sql`select gm.group_id from ${groupMembers} gm where gm.user_id = ${userId}`;

/**
 * Moves each group's last message to the newest of `latest`, unless the group already shows a newer one (the same
 * message again: its text changed, it was edited or deleted).
 */
export const recordLastMessageSql = (latest: SQL) =>
  sql`update ${groups} g set last_message = l.preview, last_message_time = l.created_at,
      last_message_sender = l.sender_id, last_message_cursor = l.cursor, last_updated = l.created_at
    from (${latest}) l
    where g.id = l.conversation_id and g.last_message_cursor <= l.cursor`;
