import type { MatchCandidate, MatchPage, MatchQuery, PublicProfile, SearchQuery } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { profiles, type CandidateRow, type PublicProfileRow, type Viewer } from '../profile/profiles.service.ts';
import { hiddenFrom } from './blocks.repository.ts';
import * as friendsRepo from './friends.repository.ts';
import { decodeCursor, encodeCursor } from './match-cursor.ts';
import { pendingWith } from './requests.repository.ts';

/** Profile picture first, then the additional images (requirements §3 Match candidate `images`). */
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

/** The candidates with the pending request between the viewer and each (the one received wins). */
async function toCandidates(db: Db, viewerId: string, rows: CandidateRow[]): Promise<MatchCandidate[]> {
  const { sent, received } = await pendingWith(
    db,
    viewerId,
    rows.map((r) => r.uid),
  );
  return rows.map((r) => {
    const receivedId = received.get(r.uid);
    const sentId = sent.get(r.uid);
    return {
      ...toPublicProfile(r),
      score: r.score,
      request: receivedId
        ? { kind: 'received', requestId: receivedId }
        : sentId
          ? { kind: 'sent', requestId: sentId }
          : { kind: 'none' },
    };
  });
}

/** The viewer as the ranking needs them: their course keys; their friends and blocked pairs (issue 24) left out. */
async function rankingViewer(db: Db, viewer: Viewer) {
  const [courseKeys, friendIds, hidden] = await Promise.all([
    profiles.discovery.courseKeys(db, viewer.id),
    friendsRepo.friendIds(db, viewer.id),
    hiddenFrom(db, viewer.id),
  ]);
  return { ...viewer, courseKeys, excludeIds: [...new Set([...friendIds, ...hidden])] };
}

/** One page of ranked suggestions for the viewer (only ever the viewer's own college). */
export async function matchPage(db: Db, viewer: Viewer, query: MatchQuery): Promise<MatchPage> {
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const found = await profiles.discovery.matches(db, await rankingViewer(db, viewer), after, query.limit);
  const page = found.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    candidates: await toCandidates(db, viewer.id, page),
    nextCursor:
      found.length > query.limit && last
        ? encodeCursor({ score: last.score, createdAt: last.createdKey, id: last.uid })
        : null,
  };
}

export async function search(db: Db, viewer: Viewer, query: SearchQuery): Promise<MatchCandidate[]> {
  const found = await profiles.discovery.search(db, await rankingViewer(db, viewer), query.q, query.limit);
  return toCandidates(db, viewer.id, found);
}
