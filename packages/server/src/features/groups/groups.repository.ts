import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { GroupKind } from '@studybuddy/shared/groups';
import type { Db } from '../../db/connect.ts';
import { connections, groupMembers, groups, profiles } from '../../db/schema.ts';

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

/** Members with their names and pictures, in joining order. */
export async function membersOf(db: Db, groupId: string) {
  return db
    .select({ id: groupMembers.userId, name: profiles.name, profilePicture: profiles.profilePicture })
    .from(groupMembers)
    .leftJoin(profiles, eq(profiles.userId, groupMembers.userId))
    .where(eq(groupMembers.groupId, groupId))
    .orderBy(asc(groupMembers.joinedAt), asc(groupMembers.userId));
}

export async function memberIds(db: Db, groupId: string): Promise<string[]> {
  const rows = await db.select({ id: groupMembers.userId }).from(groupMembers).where(eq(groupMembers.groupId, groupId));
  return rows.map((r) => r.id);
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

/** Which of `ids` are friends of the user. */
export async function friendsAmong(db: Db, userId: string, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db
    .select({ id: connections.friendId })
    .from(connections)
    .where(and(eq(connections.userId, userId), inArray(connections.friendId, ids)));
  return new Set(rows.map((r) => r.id));
}

/** The user's friends with names and pictures, by name. */
export async function friendsOf(db: Db, userId: string) {
  return db
    .select({ id: connections.friendId, name: profiles.name, profilePicture: profiles.profilePicture })
    .from(connections)
    .innerJoin(profiles, eq(profiles.userId, connections.friendId))
    .where(eq(connections.userId, userId))
    .orderBy(asc(profiles.lowercaseName), asc(connections.friendId));
}
