import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { groupMembers, groups } from '../../db/schema/groups.ts';

/** SQL over the groups tables for one student's account: their data download and their deletion. */

export interface MembershipRow {
  id: string;
  kind: 'group' | 'hot';
  name: string;
  description: string;
  createdByThem: boolean;
  createdAt: Date;
  joinedAt: Date;
  memberCount: number;
}

/** The groups (both kinds) the student is a member of, in joining order. */
export async function membershipsOf(db: Db, userId: string): Promise<MembershipRow[]> {
  return db
    .select({
      id: groups.id,
      kind: groups.kind,
      name: groups.name,
      description: groups.description,
      createdByThem: sql<boolean>`coalesce(${groups.createdBy} = ${userId}, false)`,
      createdAt: groups.createdAt,
      joinedAt: groupMembers.joinedAt,
      memberCount: sql<number>`(select count(*) from ${groupMembers} gm2 where gm2.group_id = ${groups.id})`.mapWith(
        Number,
      ),
    })
    .from(groupMembers)
    .innerJoin(groups, eq(groups.id, groupMembers.groupId))
    .where(eq(groupMembers.userId, userId))
    .orderBy(asc(groupMembers.joinedAt), asc(groups.id));
}

/** Groups whose last message is shown as the student's forget who sent it (the account is going). */
export async function forgetLastSender(db: Db, userId: string): Promise<void> {
  await db.update(groups).set({ lastMessageSender: null }).where(eq(groups.lastMessageSender, userId));
}
