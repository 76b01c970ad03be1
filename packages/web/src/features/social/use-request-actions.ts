import { useState } from 'react';
import { useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { MSG } from '@studybuddy/shared/messages';
import { SOCIAL_ERRORS, type MatchCandidate, type MatchPage, type RequestState } from '@studybuddy/shared/social';
import { ApiRequestError } from '../../lib/api.ts';
import { toast } from '../../ui/toast.ts';
import { useSession } from '../auth/index.ts';
import { socialApi, socialKeys } from './social-api.ts';

/** What became of a candidate after an action: a new request state, or friends now. */
export type ActionOutcome = RequestState | { kind: 'friends' };

const codeOf = (err: unknown) => (err instanceof ApiRequestError ? err.code : '');
const statusOf = (err: unknown) => (err instanceof ApiRequestError ? err.status : 0);

/** Applies an outcome to the cached match pages: a new request state, or the candidate leaves the list. */
export function patchMatches(client: QueryClient, uid: string, outcome: ActionOutcome): void {
  client.setQueryData<InfiniteData<MatchPage>>(socialKeys.matches, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            candidates:
              outcome.kind === 'friends'
                ? page.candidates.filter((c) => c.uid !== uid)
                : page.candidates.map((c) => (c.uid === uid ? { ...c, request: outcome } : c)),
          })),
        }
      : data,
  );
}

/** Connect, unsend and accept on a match candidate, with every toast of requirements §8 Match finder. */
export function useRequestActions() {
  const client = useQueryClient();
  const session = useSession();
  const [busy, setBusy] = useState<string | null>(null);

  const settle = (uid: string, outcome: ActionOutcome) => {
    patchMatches(client, uid, outcome);
    void client.invalidateQueries({ queryKey: socialKeys.requests });
    if (outcome.kind === 'friends') void client.invalidateQueries({ queryKey: socialKeys.friends });
    return outcome;
  };

  const run = async (uid: string, fn: () => Promise<ActionOutcome | null>): Promise<ActionOutcome | null> => {
    setBusy(uid);
    try {
      return await fn();
    } finally {
      setBusy(null);
    }
  };

  const connect = (c: MatchCandidate | undefined) => {
    if (!session.data?.profile) {
      toast.error(MSG.match.userNotLoaded);
      return Promise.resolve(null);
    }
    if (!c?.uid) {
      toast.error(MSG.match.invalidMatch);
      return Promise.resolve(null);
    }
    return run(c.uid, async () => {
      try {
        const result = await socialApi.send(c.uid);
        if (result.outcome === 'connected') {
          toast.success(MSG.match.connected(c.name));
          return settle(c.uid, { kind: 'friends' });
        }
        toast.success(MSG.match.sent(c.name));
        return settle(c.uid, { kind: 'sent', requestId: result.requestId });
      } catch (err) {
        const code = codeOf(err);
        if (code === SOCIAL_ERRORS.requestExists) {
          toast.info(MSG.match.alreadySent);
          // Another tab sent it: pick up the real state.
          void client.invalidateQueries({ queryKey: socialKeys.matches });
        } else if (code === SOCIAL_ERRORS.alreadyFriends) toast.info(MSG.match.alreadyFriends);
        else if (code === SOCIAL_ERRORS.otherCollege) toast.error(MSG.match.otherCollege);
        else if (statusOf(err) === 400 || statusOf(err) === 404) toast.error(MSG.match.invalidMatch);
        else toast.error(MSG.match.sendFailed);
        return null;
      }
    });
  };

  const unsend = (c: MatchCandidate) =>
    run(c.uid, async () => {
      if (c.request.kind !== 'sent') return null;
      try {
        await socialApi.unsend(c.request.requestId);
        toast.success(MSG.match.removed);
        return settle(c.uid, { kind: 'none' });
      } catch (err) {
        if (codeOf(err) === SOCIAL_ERRORS.requestNotFound) {
          toast.error(MSG.match.requestNotFound);
          return settle(c.uid, { kind: 'none' });
        }
        toast.error(MSG.match.unsendFailed);
        return null;
      }
    });

  const accept = (c: MatchCandidate) =>
    run(c.uid, async () => {
      if (c.request.kind !== 'received') return null;
      try {
        await socialApi.accept(c.request.requestId);
        toast.success(MSG.match.connected(c.name));
        return settle(c.uid, { kind: 'friends' });
      } catch (err) {
        if (codeOf(err) === SOCIAL_ERRORS.requestNotFound) {
          toast.error(MSG.match.requestNotFound);
          return settle(c.uid, { kind: 'none' });
        }
        toast.error(MSG.match.acceptFailed);
        return null;
      }
    });

  return { connect, unsend, accept, busy };
}
