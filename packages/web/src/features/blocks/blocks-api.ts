import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { BlockedList } from '@studybuddy/shared/blocks';
import { api } from '../../lib/api.ts';

/** Query keys of blocking (live-handlers.ts refreshes them when the student's relations change). */
export const blockKeys = {
  all: ['blocks'] as const,
  list: ['blocks', 'list'] as const,
};

const enc = encodeURIComponent;

export const blocksApi = {
  list: () => api<BlockedList>('/api/social/blocks'),
  block: (userId: string) => api<{ blocked: true }>('/api/social/blocks', { body: { userId } }),
  unblock: (userId: string) => api<{ blocked: false }>(`/api/social/blocks/${enc(userId)}`, { method: 'DELETE' }),
};

const listQuery = { queryKey: blockKeys.list, queryFn: blocksApi.list, staleTime: 60_000 };

/** The students the signed-in student blocked, newest first. */
export function useBlockedList() {
  return useQuery(listQuery);
}

const EMPTY = new Set<string>();

/** Ids of the students the signed-in student blocked (empty while loading). */
export function useBlockedIds(): ReadonlySet<string> {
  const { data } = useQuery({ ...listQuery, select: (d) => new Set(d.blocked.map((b) => b.uid)) });
  return data ?? EMPTY;
}

/** The same ids as cached now, for event handlers outside React (empty when not loaded). */
export function blockedIdsIn(client: QueryClient): ReadonlySet<string> {
  const data = client.getQueryData<BlockedList>(blockKeys.list);
  return data ? new Set(data.blocked.map((b) => b.uid)) : EMPTY;
}

/** Loads the list once a tab opens, so folding and unread counts know it from the first message. */
export const prefetchBlocked = (client: QueryClient) => client.prefetchQuery(listQuery);
