import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { groupInvitations, groups } from '../../db/schema/groups.ts';

/** Invitations to a group for classmates who are not friends (issue 27 part 5). */

export async function insertInvitations(
  db: Db,
  groupId: string,
  invitedBy: string,
  course: string,
  userIds: readonly string[],
): Promise<string[]> {
  if (!userIds.length) return [];
  const rows = await db
    .insert(groupInvitations)
    .values(userIds.map((userId) => ({ groupId, userId, invitedBy, course })))
    .onConflictDoNothing()
    .returning({ id: groupInvitations.userId });
  return rows.map((r) => r.id);
}

export interface InvitationRow {
  groupId: string;
  groupName: string;
  course: string;
  invitedBy: string;
  createdAt: Date;
}

/** The student's open invitations, oldest first. */
export async function invitationsOf(db: Db, userId: string): Promise<InvitationRow[]> {
  return db
    .select({
      groupId: groupInvitations.groupId,
      groupName: groups.name,
      course: groupInvitations.course,
      invitedBy: groupInvitations.invitedBy,
      createdAt: groupInvitations.createdAt,
    })
    .from(groupInvitations)
    .innerJoin(groups, eq(groups.id, groupInvitations.groupId))
    .where(eq(groupInvitations.userId, userId))
    .orderBy(asc(groupInvitations.createdAt), asc(groupInvitations.groupId));
}

/** Deletes the student's invitation to the group and answers who sent it (null: there was none). */
export async function takeInvitation(db: Db, groupId: string, userId: string): Promise<{ invitedBy: string } | null> {
  const [row] = await db
    .delete(groupInvitations)
    .where(and(eq(groupInvitations.groupId, groupId), eq(groupInvitations.userId, userId)))
    .returning({ invitedBy: groupInvitations.invitedBy });
  return row ?? null;
}

/** Every invitation the student sent or received (account data). */
export async function invitationsInvolving(db: Db, userId: string) {
  return db
    .select()
    .from(groupInvitations)
    .where(eq(groupInvitations.userId, userId))
    .orderBy(asc(groupInvitations.createdAt));
}
