import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';

/**
 * A complete profile (spec §5) for rows aliased `p`. Written exactly like the predicate of the partial indexes
 * in migrations/0003_social_indexes.sql so the planner can use them.
 */
export const COMPLETE = sql.raw(
  `btrim(p.name) <> '' AND btrim(p.major) <> '' AND p.year <> '' AND p.has_custom_profile_picture`,
);

/** `p` (aliased profile row) is not already a friend of `viewerId`. */
export const notFriendOf = (viewerId: string) =>
  sql`NOT EXISTS (SELECT 1 FROM connections c WHERE c.user_id = ${viewerId} AND c.friend_id = p.user_id)`;

/** Profile creation time as a fixed-format UTC string with microseconds: sorts like the timestamp. */
export const timeKey = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Runs raw SQL and returns its rows (PGlite and node-postgres both answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
