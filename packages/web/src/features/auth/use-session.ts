import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { isProfileComplete, type SessionInfo } from '@studybuddy/shared/session';
import { api } from '../../lib/api.ts';

export const SESSION_KEY = ['session'] as const;

const CHANNEL = 'studybuddy-session';
/** While the profile is incomplete the guard keeps /profile; this often it asks whether that changed. */
const INCOMPLETE_POLL_MS = 3_000;
const SIGNED_IN_POLL_MS = 15_000;

/**
 * The signed-in user and profile, watched live: refetched on focus, every few seconds while the profile is
 * incomplete (so completing it in another tab lifts the /profile redirect without a reload), and at once when
 * another tab of this browser announces a change (see announceSessionChange).
 */
export function useSession() {
  return useQuery({
    queryKey: SESSION_KEY,
    queryFn: () => api<SessionInfo>('/api/auth/session'),
    staleTime: 5_000,
    refetchOnWindowFocus: true,
    refetchInterval: (q) => {
      const data = q.state.data;
      if (!data?.user) return false;
      return isProfileComplete(data.profile) ? SIGNED_IN_POLL_MS : INCOMPLETE_POLL_MS;
    },
  });
}

/** Refetch the session now, here and in this browser's other tabs (after log-in, log-out, a profile save). */
export function useRefreshSession() {
  const client = useQueryClient();
  return async () => {
    announceSessionChange();
    await client.invalidateQueries({ queryKey: SESSION_KEY });
  };
}

/** Tells this browser's other tabs that the session or profile changed. */
export function announceSessionChange(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage('changed');
  channel.close();
}

/** Listens for other tabs' announcements (mounted once, by the route guards). */
export function useSessionSync(): void {
  const client = useQueryClient();
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = () => void client.invalidateQueries({ queryKey: SESSION_KEY });
    return () => channel.close();
  }, [client]);
}
