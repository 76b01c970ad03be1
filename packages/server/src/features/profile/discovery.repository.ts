import { sql, type SQL } from 'drizzle-orm';
import { MATCH_POINTS, majorKey } from '@studybuddy/shared/match-score';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';

/**
 * Student discovery over the profiles: the match ranking and the name search. Whom to leave out (the viewer's
 * friends) is the caller's to say; the friendships are not this feature's tables.
 */

/**
 * A complete profile (requirements §5) for rows aliased `p`. Written exactly like the predicate of the partial indexes
 * in migrations/0003_social_indexes.sql so the planner can use them.
 */
const COMPLETE = sql.raw(
  `btrim(p.name) <> '' AND btrim(p.major) <> '' AND p.year <> '' AND p.has_custom_profile_picture`,
);

/** Profile creation time as a fixed-format UTC string with microseconds: sorts like the timestamp. */
const timeKey = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Position after the last candidate of a page, in the ranking order (score desc, then the further signal desc —
 * free time in common, issue 27 — then newest first, id desc).
 */
export interface RankPosition {
  score: number;
  /** The further signal's value (0 when the viewer has none). */
  free: number;
  /** UTC timestamp with microseconds, as `timeKey` writes it. */
  createdAt: string;
  id: string;
}

/** Whose suggestions: the signed-in student's id, college, major and year. */
export interface Viewer {
  id: string;
  college: string;
  major: string;
  year: string;
}

/** The viewer with their normalised course keys (passed as constants so the planner sees real frequencies). */
export interface RankingViewer extends Viewer {
  courseKeys: string[];
  /** Students never suggested (the viewer's friends). */
  excludeIds: string[];
  /**
   * A further signal among equal scores (another feature's SQL for a row's user id, 0–999, higher first): the
   * schedule's free time in common. Absent: the spec's order alone.
   */
  tiebreak?: (userIdColumn: SQL) => SQL;
}

/** The viewer's course keys (profile_courses primary key). */
export async function courseKeysOf(db: Db, userId: string): Promise<string[]> {
  const found = await rows<{ k: string }>(
    db,
    sql`SELECT course_key AS k FROM profile_courses WHERE user_id = ${userId}`,
  );
  return found.map((r) => r.k);
}

/** A candidate row as the queries return it, before it is shaped for the API. */
export interface CandidateRow {
  uid: string;
  name: string;
  college: string;
  major: string;
  year: string;
  bio: string;
  profilePicture: string;
  additionalImages: string[];
  score: number;
  /** The further signal's value (0 without one). */
  free: number;
  createdKey: string;
  sharedCourses: string[];
}

const keyList = (v: RankingViewer) =>
  sql`(${sql.join(
    v.courseKeys.map((k) => sql`${k}`),
    sql`, `,
  )})`;
/** `pc` (a profile_courses row) is one of the viewer's courses; FALSE when the viewer has none. */
const isMyCourse = (v: RankingViewer) => (v.courseKeys.length ? sql`pc.course_key IN ${keyList(v)}` : sql`FALSE`);

const notExcluded = (v: RankingViewer) =>
  v.excludeIds.length
    ? sql`p.user_id NOT IN (${sql.join(
        v.excludeIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql`TRUE`;

/** Same college, complete profile, account not disabled, not the viewer, not excluded (a friend). */
const eligible = (v: RankingViewer) =>
  sql`p.college = ${v.college} AND ${COMPLETE} AND NOT p.account_disabled
    AND p.user_id <> ${v.id} AND ${notExcluded(v)}`;

const sameMajor = (v: Viewer) => sql`lower(btrim(p.major)) = ${majorKey(v.major)}`;
const sameYear = (v: Viewer) => sql`p.year = ${v.year}`;
const bonus = (v: Viewer) =>
  sql`(CASE WHEN ${sameMajor(v)} THEN ${sql.raw(String(MATCH_POINTS.sameMajor))} ELSE 0 END
     + CASE WHEN ${sameYear(v)} THEN ${sql.raw(String(MATCH_POINTS.sameYear))} ELSE 0 END)`;
const sharedCount = (v: RankingViewer) =>
  sql`(SELECT count(*)::int FROM profile_courses pc WHERE pc.user_id = p.user_id AND ${isMyCourse(v)})`;

const per = sql.raw(String(MATCH_POINTS.sharedCourse));

/** A ranked id before its details are loaded. */
interface Ranked {
  user_id: string;
  score: number;
  free?: number;
  created_key: string;
}

/** The row's further signal, or a plain 0 (no ordering by it) without one. */
const freeOf = (v: RankingViewer) => (v.tiebreak ? v.tiebreak(sql`p.user_id`) : sql`0`);
/** ORDER BY term of the signal (nothing without one, so the plans stay as they were). */
const freeOrder = (v: RankingViewer, column: SQL) => (v.tiebreak ? sql`${column} DESC,` : sql``);
/** The signal's part of a keyset comparison: `(..., free, ...)` only with one. */
const freeKey = (v: RankingViewer, value: SQL) => (v.tiebreak ? sql`${value},` : sql``);

/**
 * Students sharing at least one course rank above everyone else (score ≥ 10 > 8), and a student sharing k
 * courses above every student sharing fewer (the major/year bonus is at most 8). The sharers are counted once
 * (index-only on profile_courses (course_key, user_id)); their levels are then walked from the most shared courses
 * down, each sorted by its exact score, and reading stops as soon as `limit` rows are found, so the large level
 * of students sharing one course is usually never joined with their profiles.
 */
function sharersQuery(v: RankingViewer, after: RankPosition | undefined, limit: number): SQL | null {
  if (!v.courseKeys.length || (after && after.score < MATCH_POINTS.sharedCourse)) return null;
  const levelsAfter = after ? sql`WHERE s.shared * ${per} <= ${after.score}` : sql``;
  const afterCursor = after
    ? sql`AND (s2.shared * ${per} + ${bonus(v)}, ${freeKey(v, freeOf(v))} p.created_at, p.user_id COLLATE "C")
            < (${after.score}, ${freeKey(v, sql`${after.free}`)} ${after.createdAt}::timestamptz, ${after.id} COLLATE "C")`
    : sql``;
  // Rows come out level by level (a nested loop over the levels in descending order), each level already sorted.
  return sql`WITH sharers AS MATERIALIZED (
      SELECT pc.user_id, count(*)::int AS shared FROM profile_courses pc
      WHERE ${isMyCourse(v)} AND pc.user_id <> ${v.id} GROUP BY pc.user_id
    )
    SELECT a.user_id, a.score, a.free, ${timeKey(sql`a.created_at`)} AS created_key FROM (
      SELECT x.user_id, x.created_at, x.score, x.free
      FROM (SELECT DISTINCT s.shared FROM sharers s ${levelsAfter} ORDER BY s.shared DESC) lv
      CROSS JOIN LATERAL (
        SELECT p.user_id, p.created_at, s2.shared * ${per} + ${bonus(v)} AS score, ${freeOf(v)} AS free
        FROM sharers s2 JOIN profiles p ON p.user_id = s2.user_id
        WHERE s2.shared = lv.shared AND ${eligible(v)} ${afterCursor}
        ORDER BY score DESC, ${freeOrder(v, sql`free`)} p.created_at DESC, p.user_id COLLATE "C" DESC LIMIT ${limit}
      ) x
      LIMIT ${limit}
    ) a ORDER BY a.score DESC, ${freeOrder(v, sql`a.free`)} a.created_at DESC, a.user_id COLLATE "C" DESC`;
}

/**
 * Students without a shared course have one of four fixed scores (major and/or year alike); each group is read
 * newest first from a partial index on (college, major | year, created_at, id), stopping after `limit` rows.
 */
function groupQueries(v: RankingViewer, after: RankPosition | undefined): ((limit: number) => SQL)[] {
  const notMajor = sql`lower(btrim(p.major)) <> ${majorKey(v.major)}`;
  const notYear = sql`p.year <> ${v.year}`;
  const noSharedCourse = v.courseKeys.length
    ? sql`AND NOT EXISTS (SELECT 1 FROM profile_courses pc WHERE pc.user_id = p.user_id AND ${isMyCourse(v)})`
    : sql``;
  const groups = [
    { score: MATCH_POINTS.sameMajor + MATCH_POINTS.sameYear, where: sql`${sameMajor(v)} AND ${sameYear(v)}` },
    { score: MATCH_POINTS.sameMajor, where: sql`${sameMajor(v)} AND ${notYear}` },
    { score: MATCH_POINTS.sameYear, where: sql`${notMajor} AND ${sameYear(v)}` },
    { score: 0, where: sql`${notMajor} AND ${notYear}` },
  ];
  return groups
    .filter((g) => !after || g.score <= after.score)
    .map((g) => (limit: number) => {
      const afterCursor =
        after && g.score === after.score
          ? sql`AND (${freeKey(v, freeOf(v))} p.created_at, p.user_id COLLATE "C")
              < (${freeKey(v, sql`${after.free}`)} ${after.createdAt}::timestamptz, ${after.id} COLLATE "C")`
          : sql``;
      return sql`SELECT p.user_id, ${sql.raw(String(g.score))} AS score, ${freeOf(v)} AS free,
          ${timeKey(sql`p.created_at`)} AS created_key
        FROM profiles p
        WHERE ${eligible(v)} AND ${g.where} ${noSharedCourse} ${afterCursor}
        ORDER BY ${freeOrder(v, sql`free`)} p.created_at DESC, p.user_id COLLATE "C" DESC LIMIT ${limit}`;
    });
}

/** Details of ranked ids (in their order): profile and shared courses. */
async function withDetails(db: Db, v: Viewer, ranked: Ranked[]): Promise<CandidateRow[]> {
  if (!ranked.length) return [];
  const ids = sql.join(
    ranked.map((r) => sql`${r.user_id}`),
    sql`, `,
  );
  const found = await rows<Omit<CandidateRow, 'score' | 'createdKey'>>(
    db,
    sql`SELECT p.user_id AS uid, p.name, p.college, p.major, p.year, p.bio,
      p.profile_picture AS "profilePicture", p.additional_images AS "additionalImages",
      ARRAY(SELECT mine.name FROM profile_courses mine
            JOIN profile_courses theirs ON theirs.course_key = mine.course_key AND theirs.user_id = p.user_id
            WHERE mine.user_id = ${v.id} ORDER BY mine.name COLLATE "C") AS "sharedCourses"
    FROM profiles p WHERE p.user_id IN (${ids})`,
  );
  const byId = new Map(found.map((r) => [r.uid, r]));
  return ranked.flatMap((r) => {
    const row = byId.get(r.user_id);
    return row ? [{ ...row, score: r.score, free: Number(r.free ?? 0), createdKey: r.created_key }] : [];
  });
}

/**
 * One page of match suggestions after `after`, ranked in SQL by score (10 per shared course, 5 same major,
 * 3 same year) desc, then newest profile first, then id desc. The score bands are disjoint and ordered
 * (sharers ≥ 10 > 8 > 5 > 3 > 0), so they are read one after another, each only as far as the page still
 * needs. Returns up to `limit` + 1 rows (the extra one tells the caller a next page exists).
 */
export async function findMatches(
  db: Db,
  v: RankingViewer,
  after: RankPosition | undefined,
  limit: number,
): Promise<CandidateRow[]> {
  const take = limit + 1;
  const ranked: Ranked[] = [];
  const sharers = sharersQuery(v, after, take);
  if (sharers) ranked.push(...(await rows<Ranked>(db, sharers)));
  for (const group of groupQueries(v, after)) {
    if (ranked.length >= take) break;
    ranked.push(...(await rows<Ranked>(db, group(take - ranked.length))));
  }
  return withDetails(db, v, ranked.slice(0, take));
}

const likePrefix = (q: string) => q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + '%';

/**
 * User search of requirements §5: case-insensitive prefix of lowercaseName, same college, complete profiles,
 * excluding the viewer and friends; in byte order of the name (`~<~`, the order of the
 * (college, lowercase_name text_pattern_ops) index, so only the first rows are read), then id.
 */
export async function searchUsers(db: Db, v: RankingViewer, q: string, limit: number): Promise<CandidateRow[]> {
  // Scored only after the limit: the inner query reads just the first index entries.
  const ranked = await rows<Ranked>(
    db,
    sql`SELECT p.user_id, ${sharedCount(v)} * ${per} + ${bonus(v)} AS score, ${timeKey(sql`p.created_at`)} AS created_key
      FROM (
        SELECT p.user_id, p.created_at, p.major, p.year, p.lowercase_name FROM profiles p
        WHERE ${eligible(v)} AND p.lowercase_name LIKE ${likePrefix(q)}
        ORDER BY p.lowercase_name USING ~<~, p.user_id COLLATE "C" LIMIT ${limit}
      ) p
      ORDER BY p.lowercase_name USING ~<~, p.user_id COLLATE "C"`,
  );
  return withDetails(db, v, ranked);
}

/** Who may be proposed or invited to a study group of one course: the viewer's college, the course, left-outs. */
export interface ClassmatesQuery {
  viewer: Viewer;
  /** The course's key (profile_courses.course_key). */
  courseKey: string;
  /** Never proposed (blocked either way). */
  excludeIds: string[];
  /** Shared free time with the viewer for a row's user id (the schedule's SQL); absent: newest first. */
  freeTime?: (userIdColumn: SQL) => SQL;
}

const classmateWhere = (q: ClassmatesQuery) =>
  sql`pc.course_key = ${q.courseKey} AND ${eligible({ ...q.viewer, courseKeys: [], excludeIds: q.excludeIds })}`;

/**
 * "Find a study group" (issue 27 part 5): complete profiles of the viewer's college holding the course, most
 * free time in common first (then newest), at most `limit`. Ids only: whose cells are free is never read here.
 */
export async function findClassmates(db: Db, q: ClassmatesQuery, limit: number): Promise<string[]> {
  const free = q.freeTime ? q.freeTime(sql`p.user_id`) : sql`0`;
  const found = await rows<{ uid: string }>(
    db,
    sql`SELECT p.user_id AS uid FROM profile_courses pc JOIN profiles p ON p.user_id = pc.user_id
      WHERE ${classmateWhere(q)}
      ORDER BY ${free} DESC, p.created_at DESC, p.user_id COLLATE "C" DESC LIMIT ${limit}`,
  );
  return found.map((r) => r.uid);
}

/** Of `ids`, those the viewer may invite to a study group of the course (the same rule as `findClassmates`). */
export async function classmatesAmong(db: Db, q: ClassmatesQuery, ids: readonly string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const found = await rows<{ uid: string }>(
    db,
    sql`SELECT p.user_id AS uid FROM profile_courses pc JOIN profiles p ON p.user_id = pc.user_id
      WHERE ${classmateWhere(q)} AND p.user_id IN (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
  );
  return new Set(found.map((r) => r.uid));
}

/** The viewer's own course of that key, as their profile names it; null when they do not take it. */
export async function ownCourseName(db: Db, userId: string, courseKey: string): Promise<string | null> {
  const [row] = await rows<{ name: string }>(
    db,
    sql`SELECT name FROM profile_courses WHERE user_id = ${userId} AND course_key = ${courseKey}`,
  );
  return row?.name ?? null;
}
