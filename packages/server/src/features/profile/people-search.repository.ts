import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';
import { tsquery, tsvector, type TextQuery } from '../../platform/full-text.ts';

/**
 * The search box's people (issue 17): students by any word of their name. Only those the viewer may find: the
 * viewer's friends (whoever the caller says they are) and students of the viewer's college with a complete profile;
 * never a student whose account is disabled, nor one the caller says is hidden (a blocked pair; issue 24).
 */

/**
 * A complete profile (requirements §5) for rows aliased `p`: the predicate of discovery.repository.ts, written
 * exactly like that of profiles_name_search_idx (migrations/0013_search.sql) so the planner can use the index.
 */
const COMPLETE = sql.raw(
  `btrim(p.name) <> '' AND btrim(p.major) <> '' AND p.year <> '' AND p.has_custom_profile_picture`,
);

export interface PersonRow {
  uid: string;
  name: string;
  profilePicture: string;
  major: string;
  year: string;
  friend: boolean;
}

/** Friends first, then the viewer's college; each by name. */
export async function searchPeople(
  db: Db,
  viewer: { id: string; college: string },
  friendIds: string[],
  q: TextQuery,
  limit: number,
  hiddenIds: string[] = [],
): Promise<PersonRow[]> {
  const query = tsquery(q);
  const words = sql`${tsvector(sql`p.name`)} @@ ${query}`;
  const ids = sql.join(
    friendIds.map((id) => sql`${id}`),
    sql`, `,
  );
  const columns = sql`p.user_id AS uid, p.name, p.profile_picture AS "profilePicture", p.major, p.year, p.lowercase_name`;
  const notHidden = hiddenIds.length
    ? sql`AND p.user_id NOT IN (${sql.join(
        hiddenIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const friends = friendIds.length
    ? sql`SELECT ${columns}, true AS friend FROM profiles p
        WHERE p.user_id IN (${ids}) AND NOT p.account_disabled ${notHidden} AND ${words}`
    : sql`SELECT ${columns}, true AS friend FROM profiles p WHERE false`;
  const notFriend = friendIds.length ? sql`AND p.user_id NOT IN (${ids})` : sql``;
  // Materialised: the words are matched first (the GIN index on names), then ordered; ordering first would walk the
  // college's names in order and compute each one's words until enough matched.
  return rows<PersonRow>(
    db,
    sql`WITH college AS MATERIALIZED (
        SELECT ${columns}, false AS friend FROM profiles p
        WHERE p.college = ${viewer.college} AND ${COMPLETE} AND NOT p.account_disabled AND p.user_id <> ${viewer.id}
          ${notFriend} ${notHidden} AND ${words}
      ), friends AS MATERIALIZED (${friends})
      SELECT x.uid, x.name, x."profilePicture", x.major, x.year, x.friend
      FROM (SELECT * FROM friends UNION ALL (SELECT * FROM college ORDER BY lowercase_name, uid LIMIT ${limit})) x
      ORDER BY x.friend DESC, x.lowercase_name, x.uid LIMIT ${limit}`,
  );
}

/** What the search needs to know of the one searching: college, courses, and whether their profile is complete. */
export async function searcherFields(db: Db, userId: string) {
  const [row] = await rows<{
    college: string;
    courses: { id: string; name: string }[];
    name: string;
    major: string;
    year: string;
    picture: boolean;
  }>(
    db,
    sql`SELECT college, courses, name, major, year, has_custom_profile_picture AS picture FROM profiles
      WHERE user_id = ${userId}`,
  );
  return row;
}
