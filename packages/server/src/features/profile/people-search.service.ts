import type { PersonHit } from '@studybuddy/shared/search';
import { isProfileComplete, type OwnProfile } from '@studybuddy/shared/session';
import type { Db } from '../../db/connect.ts';
import { textMatch, type TextQuery } from '../../platform/full-text.ts';
import { searcherFields, searchPeople } from './people-search.repository.ts';

export interface Searcher {
  college: string;
  /** The courses of their profile (the Courses page's). */
  courses: { id: string; name: string }[];
}

/** The student searching, or null while their profile is incomplete (requirements §6: they discover nobody yet). */
export async function findSearcher(db: Db, userId: string): Promise<Searcher | null> {
  const p = await searcherFields(db, userId);
  if (!p) return null;
  const complete = isProfileComplete({ ...p, year: p.year as OwnProfile['year'], hasCustomProfilePicture: p.picture });
  return complete ? { college: p.college, courses: p.courses } : null;
}

/**
 * Students whose name has the query's words: the viewer's friends (ids from the social feature, which owns the
 * friendships) and students of the viewer's college with a complete profile, as discovery shows them; never those
 * in `hiddenIds` (a blocked pair, issue 24: the social feature says who).
 */
export async function findPeople(
  db: Db,
  viewer: { id: string; college: string },
  friendIds: string[],
  q: TextQuery,
  limit: number,
  hiddenIds: string[] = [],
): Promise<PersonHit[]> {
  const found = await searchPeople(db, viewer, friendIds, q, limit, hiddenIds);
  return found.map((r) => ({
    uid: r.uid,
    name: textMatch(r.name, q) ?? { text: r.name, marks: [], cutStart: false, cutEnd: false },
    profilePicture: r.profilePicture,
    major: r.major,
    year: r.year,
    friend: r.friend,
  }));
}
