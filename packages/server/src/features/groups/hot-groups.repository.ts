import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';
import { groupMembers, groups } from '../../db/schema/groups.ts';
import { courseworkSql } from '../lms/coursework.service.ts';
import { profiles } from '../profile/profiles.service.ts';

/**
 * The hot-group rules in SQL. Whether a student holds a course comes from its owners: the profile's course list
 * and the LMS coursework cache, each a scalar subquery of theirs that counts only what the server vouches for.
 */

/** True when the student behind `userId` holds the course (profile courses or imported coursework). */
const holdsCourse = (userId: SQL, courseId: string): SQL<boolean> =>
  sql<boolean>`(coalesce(${profiles.sql.holdsCourse(userId, courseId)}, false)
    or ${courseworkSql.holdsCourse(userId, courseId)})`;

/** The college a hot group belongs to: its creator's, else its longest-standing member's (null: nobody's). */
function collegeOf(groupId: string): SQL<string | null> {
  return sql<string | null>`(select coalesce(${profiles.sql.college(sql`g.created_by`)},
      (select m.college from (select ${profiles.sql.college(sql`gm.user_id`)} as college, gm.created_at, gm.user_id
        from ${groupMembers} gm where gm.group_id = g.id) m
        where m.college is not null order by m.created_at, m.user_id limit 1))
    from ${groups} g where g.id = ${groupId})`;
}

/** Whether the student (with a profile) holds the course at the group's college. */
export async function holdsAtGroupCollege(db: Db, userId: string, groupId: string, courseId: string): Promise<boolean> {
  const me = sql`${userId}`;
  const college = collegeOf(groupId);
  const myCollege = profiles.sql.college(me);
  const [row] = await rows<{ ok: boolean | null }>(
    db,
    sql`select (${myCollege} is not null and ${holdsCourse(me, courseId)}
      and (${college} is null or ${college} = ${myCollege})) as ok`,
  );
  return row?.ok === true;
}

export interface OpenerRow {
  college: string | null;
  holdsCourse: boolean;
  itemName: string | null;
}

/** The student's college, whether they hold the course, and the item's name in their coursework, in one query. */
export async function openerFacts(db: Db, userId: string, courseId: string, itemId: string): Promise<OpenerRow> {
  const me = sql`${userId}`;
  const [row] = await rows<OpenerRow>(
    db,
    sql`select ${profiles.sql.college(me)} as college, ${holdsCourse(me, courseId)} as "holdsCourse",
      ${courseworkSql.itemName(me, courseId, itemId)} as "itemName"`,
  );
  return row ?? { college: null, holdsCourse: false, itemName: null };
}

/** The student's college when they hold the course; null otherwise (or without a profile). */
export async function collegeIfHolding(db: Db, userId: string, courseId: string): Promise<string | null> {
  const me = sql`${userId}`;
  const [row] = await rows<{ college: string | null }>(
    db,
    sql`select case when ${holdsCourse(me, courseId)} then ${profiles.sql.college(me)} end as college`,
  );
  return row?.college ?? null;
}

/** Removes the members (with a profile) who do not hold the course at `college`; returns their ids. */
export async function removeMembersWithoutCourse(
  db: Db,
  groupId: string,
  college: string,
  courseId: string,
): Promise<string[]> {
  const member = sql`${groupMembers.userId}`;
  const theirCollege = profiles.sql.college(member);
  const rows = await db
    .delete(groupMembers)
    .where(
      and(
        eq(groupMembers.groupId, groupId),
        sql`${theirCollege} is not null and not (${theirCollege} = ${college} and ${holdsCourse(member, courseId)})`,
      ),
    )
    .returning({ id: groupMembers.userId });
  return rows.map((r) => r.id);
}
