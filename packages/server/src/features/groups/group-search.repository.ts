import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { GroupKind } from '@studybuddy/shared/groups';
import type { Db } from '../../db/connect.ts';
import { groupMembers, groups } from '../../db/schema/groups.ts';
import { tsvector } from '../../platform/full-text.ts';

/** The search box's groups (issue 17): the user's own groups by the words of their name and description. */

export interface GroupSearchRow {
  id: string;
  kind: GroupKind;
  name: string;
  description: string;
  groupImage: string;
}

/** Groups and hot groups the user is a member of whose name or description has the words, most active first. */
export async function searchMemberGroups(db: Db, userId: string, query: SQL, limit: number): Promise<GroupSearchRow[]> {
  const words = sql`${tsvector(sql`${groups.name} || ' ' || ${groups.description}`)} @@ ${query}`;
  return db
    .select({
      id: groups.id,
      kind: groups.kind,
      name: groups.name,
      description: groups.description,
      groupImage: groups.groupImage,
    })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)))
    .where(words)
    .orderBy(desc(groups.lastUpdated), groups.id)
    .limit(limit);
}

/** Names of groups by id (a missing group is absent). */
export async function groupNames(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const found = await db.select({ id: groups.id, name: groups.name }).from(groups).where(inArray(groups.id, ids));
  return new Map(found.map((g) => [g.id, g.name]));
}

/** Names of the groups the user is a member of, by id. */
export async function memberGroupNames(db: Db, userId: string): Promise<Map<string, string>> {
  const found = await db
    .select({ id: groups.id, name: groups.name })
    .from(groups)
    .innerJoin(groupMembers, and(eq(groupMembers.groupId, groups.id), eq(groupMembers.userId, userId)));
  return new Map(found.map((g) => [g.id, g.name]));
}
