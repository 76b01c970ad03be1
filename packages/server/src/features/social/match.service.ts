import type { MatchCandidate, MatchPage, MatchQuery, PublicProfile, SearchQuery } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import type { PublicProfileRow } from './friends.repository.ts';
import { decodeCursor, encodeCursor } from './match-cursor.ts';
import { courseKeysOf, findMatches, searchUsers, type CandidateRow, type Viewer } from './match.repository.ts';

/** Profile picture first, then the additional images (spec §3 Match candidate `images`). */
const imagesOf = (r: Pick<PublicProfileRow, 'profilePicture' | 'additionalImages'>) =>
  [r.profilePicture, ...(r.additionalImages ?? [])].filter((src) => typeof src === 'string' && src !== '');

export function toPublicProfile(r: PublicProfileRow): PublicProfile {
  return {
    uid: r.uid,
    name: r.name,
    college: r.college,
    major: r.major,
    year: r.year,
    bio: r.bio,
    profilePicture: r.profilePicture,
    images: imagesOf(r),
    sharedCourses: r.sharedCourses ?? [],
  };
}

function toCandidate(r: CandidateRow): MatchCandidate {
  return {
    ...toPublicProfile(r),
    score: r.score,
    request: r.receivedId
      ? { kind: 'received', requestId: r.receivedId }
      : r.sentId
        ? { kind: 'sent', requestId: r.sentId }
        : { kind: 'none' },
  };
}

/** One page of ranked suggestions for the viewer (only ever the viewer's own college). */
export async function matchPage(db: Db, viewer: Viewer, query: MatchQuery): Promise<MatchPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const found = await findMatches(db, { ...viewer, courseKeys: await courseKeysOf(db, viewer.id) }, after, query.limit);
  const page = found.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    candidates: page.map(toCandidate),
    nextCursor:
      found.length > query.limit && last
        ? encodeCursor({ score: last.score, createdAt: last.createdKey, id: last.uid })
        : null,
  };
}

export async function search(db: Db, viewer: Viewer, query: SearchQuery): Promise<MatchCandidate[]> {
  const courseKeys = await courseKeysOf(db, viewer.id);
  return (await searchUsers(db, { ...viewer, courseKeys }, query.q, query.limit)).map(toCandidate);
}
