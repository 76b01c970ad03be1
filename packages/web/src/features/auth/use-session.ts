import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionInfo } from '@studybuddy/shared/session';
import { api } from '../../lib/api.ts';

export const SESSION_KEY = ['session'] as const;

/** The signed-in user and profile; refetched on focus so another tab's changes show up. */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: () => api<SessionInfo>('/api/auth/session'),
    staleTime: 5_000,
    refetchInterval: (q) => (q.state.data?.user ? 15_000 : false),
  });
}

export function useRefreshSession() {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: SESSION_KEY });
}
