import type { MatchCandidate, MatchPage, MatchQuery, SearchQuery } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import type { MatchTiebreak } from '../../platform/registry.ts';
import { profiles, type CandidateRow, type Viewer } from '../profile/profiles.service.ts';
import { hiddenFrom } from './blocks.repository.ts';
import * as friendsRepo from './friends.repository.ts';
import { decodeCursor, encodeCursor } from './match-cursor.ts';
import type { MembersService } from './members.service.ts';
import { toPublicProfile } from './public-profile.ts';
import { pendingWith } from './requests.repository.ts';

export type MatchService = ReturnType<typeof createMatchService>;

/** The match finder and the user search: students of the viewer's own college, best first. */
export function createMatchService(deps: { db: Db; members: MembersService; tiebreaks?: MatchTiebreak[] }) {
  const { db, members } = deps;
  // A further signal after the spec's score: the schedule's free time in common (issue 27 part 5); read when
  // used, as the schedule feature registers it after this one starts.
  const signal = () => deps.tiebreaks?.[0];

  /** The candidates with the pending request between the viewer and each (the one received wins). */
  async function toCandidates(viewerId: string, rows: CandidateRow[]): Promise<MatchCandidate[]> {
    const ids = rows.map((r) => r.uid);
    const [{ sent, received }, together] = await Promise.all([
      pendingWith(db, viewerId, ids),
      signal()?.details(viewerId, ids) ?? Promise.resolve(new Map()),
    ]);
    return rows.map((r) => {
      const receivedId = received.get(r.uid);
      const sentId = sent.get(r.uid);
      return {
        ...toPublicProfile(r),
        score: r.score,
        freeTogether: together.get(r.uid) ?? null,
        request: receivedId
          ? { kind: 'received', requestId: receivedId }
          : sentId
            ? { kind: 'sent', requestId: sentId }
            : { kind: 'none' },
      };
    });
  }

  /** The viewer as the ranking needs them: their course keys; their friends and blocked pairs (issue 24) left out. */
  async function rankingViewer(viewer: Viewer) {
    const [courseKeys, friendIds, hidden, free] = await Promise.all([
      profiles.discovery.courseKeys(db, viewer.id),
      friendsRepo.friendIds(db, viewer.id),
      hiddenFrom(db, viewer.id),
      signal()?.sqlFor(viewer.id) ?? null,
    ]);
    const excludeIds = [...new Set([...friendIds, ...hidden])];
    return { ...viewer, courseKeys, excludeIds, ...(free ? { tiebreak: free } : {}) };
  }

  return {
    /** One page of ranked suggestions for the viewer (only ever the viewer's own college). */
    async matchPage(userId: string, query: MatchQuery): Promise<MatchPage> {
      const viewer = await members.require(userId);
      const after = query.cursor ? decodeCursor(query.cursor) : undefined;
      const found = await profiles.discovery.matches(db, await rankingViewer(viewer), after, query.limit);
      const page = found.slice(0, query.limit);
      const last = page[page.length - 1];
      return {
        candidates: await toCandidates(viewer.id, page),
        nextCursor:
          found.length > query.limit && last
            ? encodeCursor({ score: last.score, free: last.free, createdAt: last.createdKey, id: last.uid })
            : null,
      };
    },

    async search(userId: string, query: SearchQuery): Promise<MatchCandidate[]> {
      const viewer = await members.require(userId);
      const found = await profiles.discovery.search(db, await rankingViewer(viewer), query.q, query.limit);
      return toCandidates(viewer.id, found);
    },
  };
}
