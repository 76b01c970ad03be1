/**
 * The match score of requirements §5/§9 as a pure rule: 10 per shared course, 5 for the same major, 3 for the
 * same year; candidates sorted by score descending, ties broken newest profile first, then by id
 * (descending). The server computes the same ranking in SQL; its tests compare the two.
 */
export const MATCH_POINTS = { sharedCourse: 10, sameMajor: 5, sameYear: 3 } as const;

/** How two course names are compared: trimmed, inner whitespace collapsed, lower-cased. */
export const courseKey = (name: string): string => name.trim().replace(/\s+/g, ' ').toLowerCase();

/** How two majors are compared: trimmed and lower-cased; an empty major matches nothing. */
export const majorKey = (major: string): string => major.trim().toLowerCase();

export interface ScoreSubject {
  major: string;
  year: string;
  /** Course names as the profile stores them. */
  courses: readonly string[];
}

export interface MatchScore {
  score: number;
  /** The viewer's own names (trimmed) of the courses both take, one per course, sorted by code point. */
  sharedCourses: string[];
}

export function matchScore(viewer: ScoreSubject, other: ScoreSubject): MatchScore {
  const theirs = new Set(other.courses.map(courseKey).filter(Boolean));
  const seen = new Set<string>();
  const sharedCourses: string[] = [];
  for (const name of viewer.courses) {
    const key = courseKey(name);
    if (!key || seen.has(key) || !theirs.has(key)) continue;
    seen.add(key);
    sharedCourses.push(name.trim());
  }
  sharedCourses.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sameMajor = majorKey(viewer.major) !== '' && majorKey(viewer.major) === majorKey(other.major);
  const sameYear = viewer.year !== '' && viewer.year === other.year;
  const score =
    sharedCourses.length * MATCH_POINTS.sharedCourse +
    (sameMajor ? MATCH_POINTS.sameMajor : 0) +
    (sameYear ? MATCH_POINTS.sameYear : 0);
  return { score, sharedCourses };
}

export interface RankKey {
  score: number;
  /** Profile creation time; any representation that sorts chronologically as a string (ISO 8601 UTC). */
  createdAt: string;
  id: string;
}

/** Sort order of candidates: score desc, then newest first, then id desc. */
export function compareCandidates(a: RankKey, b: RankKey): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  if (a.id !== b.id) return a.id < b.id ? 1 : -1;
  return 0;
}
