import type { PersonHit } from '@studybuddy/shared/search';
import { isProfileComplete, type OwnProfile } from '@studybuddy/shared/session';
import type { Db } from '../../db/connect.ts';
import { textMatch, type TextQuery } from '../../platform/full-text.ts';
import { searcherFields, searchPeople } from './people-search.repository.ts';

/** The student searching: their college, or null while their profile is incomplete (spec §6: no discovery yet). */
export async function searcherCollege(db: Db, userId: string): Promise<string | null> {
  const p = await searcherFields(db, userId);
  const complete =
    !!p && isProfileComplete({ ...p, year: p.year as OwnProfile['year'], hasCustomProfilePicture: p.picture });
  return complete ? p.college : null;
}

/**
 * Students whose name has the query's words: the viewer's friends (ids from the social feature, which owns the
 * friendships) and students of the viewer's college with a complete profile, as discovery shows them.
 */
export async function findPeople(
  db: Db,
  viewer: { id: string; college: string },
  friendIds: string[],
  q: TextQuery,
  limit: number,
): Promise<PersonHit[]> {
  const found = await searchPeople(db, viewer, friendIds, q, limit);
  return found.map((r) => ({
    uid: r.uid,
    name: textMatch(r.name, q) ?? { text: r.name, marks: [], cutStart: false, cutEnd: false },
    profilePicture: r.profilePicture,
    major: r.major,
    year: r.year,
    friend: r.friend,
  }));
}
