import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { courseworkCache, groupMembers, groups, profiles } from '../../db/schema.ts';

/**
 * Who may be in a hot group `{courseId}_{itemId}`: students whose imported coursework (the LMS coursework
 * cache) or profile courses hold that course, at the group's college. Canvas course ids are only unique within
 * one college's Canvas, so the group belongs to its creator's college (or, once the creator is gone, to its
 * longest-standing member's).
 */

export interface HotGroupParts {
  courseId: string;
  itemId: string;
}

/** The course and item of a hot group id; null for a regular group (their ids are UUIDs, with no '_'). */
export function hotGroupParts(groupId: string): HotGroupParts | null {
  const at = groupId.indexOf('_');
  if (at <= 0 || at === groupId.length - 1) return null;
  return { courseId: groupId.slice(0, at), itemId: groupId.slice(at + 1) };
}

export const isHotGroupId = (groupId: string) => hotGroupParts(groupId) !== null;

/** True when the student behind `userIdSql` (whose profile courses are `coursesSql`) holds the course. */
function holdsCourse(userIdSql: SQL, coursesSql: SQL, courseId: string): SQL<boolean> {
  const course = JSON.stringify([{ id: courseId }]);
  const itemOf = JSON.stringify([{ course_id: courseId }]);
  return sql<boolean>`(${coursesSql} @> ${course}::jsonb or exists (
    select 1 from ${courseworkCache} hc where hc.user_id = ${userIdSql}
      and (hc.courses @> ${course}::jsonb or hc.coursework @> ${itemOf}::jsonb)))`;
}

/** The college a hot group belongs to (null when nobody is left to say). */
function collegeOf(groupId: string): SQL<string | null> {
  return sql<string | null>`(select coalesce(
      (select cp.college from ${profiles} cp where cp.user_id = g.created_by),
      (select mp.college from ${groupMembers} gm join ${profiles} mp on mp.user_id = gm.user_id
        where gm.group_id = g.id order by gm.created_at, gm.user_id limit 1))
    from ${groups} g where g.id = ${groupId})`;
}

/**
 * Whether the student may use the hot group (read, send, listen, see its files): holds its course at its
 * college. Membership is checked by the caller. True for any id that is not a hot group's.
 */
export async function mayUseHotGroup(db: Db, userId: string, groupId: string): Promise<boolean> {
  const parts = hotGroupParts(groupId);
  if (!parts) return true;
  const college = collegeOf(groupId);
  const [row] = await db
    .select({
      ok: sql<boolean>`${holdsCourse(sql`${profiles.userId}`, sql`${profiles.courses}`, parts.courseId)}
        and (${college} is null or ${college} = ${profiles.college})`,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row?.ok === true;
}

/** The hot groups among `groupIds` the student may use. */
export async function usableHotGroups(db: Db, userId: string, groupIds: Iterable<string>): Promise<Set<string>> {
  const ids = [...new Set(groupIds)].filter(isHotGroupId);
  const ok = await Promise.all(ids.map((id) => mayUseHotGroup(db, userId, id)));
  return new Set(ids.filter((_, i) => ok[i]));
}

export interface HotGroupOpener {
  college: string;
  holdsCourse: boolean;
  /** The coursework item's title from the student's imported coursework, when it is there. */
  itemName: string | null;
}

/** What opening a hot group needs to know of the student, in one query. */
export async function hotGroupOpener(db: Db, userId: string, parts: HotGroupParts): Promise<HotGroupOpener | null> {
  const item = JSON.stringify({ id: parts.itemId, course_id: parts.courseId });
  const [row] = await db
    .select({
      college: profiles.college,
      holdsCourse: holdsCourse(sql`${profiles.userId}`, sql`${profiles.courses}`, parts.courseId),
      itemName: sql<string | null>`(select e->>'name' from ${courseworkCache} ic
        cross join lateral jsonb_array_elements(ic.coursework) e
        where ic.user_id = ${profiles.userId} and e @> ${item}::jsonb limit 1)`,
    })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row ?? null;
}

/** The creator's college when the creator still holds the group's course; null when the group has no rightful owner. */
export async function rightfulOwnerCollege(db: Db, createdBy: string | null, courseId: string): Promise<string | null> {
  if (!createdBy) return null;
  const [row] = await db
    .select({
      college: profiles.college,
      holds: holdsCourse(sql`${profiles.userId}`, sql`${profiles.courses}`, courseId),
    })
    .from(profiles)
    .where(eq(profiles.userId, createdBy))
    .limit(1);
  return row?.holds ? row.college : null;
}

/** Removes the members who do not hold the course at `college` (joined before these rules, or dropped it). */
export async function removeMembersWithoutCourse(
  db: Db,
  groupId: string,
  college: string,
  courseId: string,
): Promise<string[]> {
  const outsiders = db
    .select({ id: profiles.userId })
    .from(profiles)
    .innerJoin(groupMembers, and(eq(groupMembers.userId, profiles.userId), eq(groupMembers.groupId, groupId)))
    .where(
      sql`not (${profiles.college} = ${college} and ${holdsCourse(sql`${profiles.userId}`, sql`${profiles.courses}`, courseId)})`,
    );
  const rows = await db
    .delete(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), sql`${groupMembers.userId} in (${outsiders})`))
    .returning({ id: groupMembers.userId });
  return rows.map((r) => r.id);
}

/** Takes the student out of a hot group they may no longer use, so its live events stop reaching them too. */
export async function leaveHotGroup(db: Db, groupId: string, userId: string): Promise<void> {
  await db.delete(groupMembers).where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)));
}
