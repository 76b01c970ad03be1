import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '@studybuddy/shared/limits';
import type { CourseworkResponse, LmsStatus } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { api, ApiRequestError } from '../../lib/api.ts';
import { clearCourseworkCache, readCourseworkCache, writeCourseworkCache } from './coursework-cache.ts';
import { COURSEWORK_KEY, LMS_STATUS_KEY, timeZone } from './lms-api.ts';

/** The text to show for a failed load: the server's own for Canvas and limit failures, else 'Server error: N'. */
export function courseworkErrorMessage(err: unknown): string | null {
  if (!err) return null;
  if (err instanceof ApiRequestError) {
    if (err.code.startsWith('canvas_') || err.code === 'refresh_limit' || err.status === 0) return err.message;
    if (err.status >= 500) return MSG.coursework.serverError(err.status);
    return err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

function msUntilLocalMidnight(now = new Date()): number {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 0, 0, 1);
  return midnight.getTime() - now.getTime();
}

/**
 * The coursework helper of spec §7: memory (the query cache), then the browser cache, then the server (which
 * answers from its own 24-hour cache or Canvas). Forced refreshes are counted by the server (3 a day); the
 * count shown is the server's, and at local midnight it is fetched again and the coursework reloaded.
 */
export function useCoursework(userId: string | undefined, status: LmsStatus | undefined) {
  const client = useQueryClient();
  const connectionId = status?.connected ? status.connection_id : null;
  const key = [...COURSEWORK_KEY, userId, connectionId] as const;

  const remember = (data: CourseworkResponse) => {
    if (userId && connectionId) writeCourseworkCache(userId, connectionId, data);
    client.setQueryData<LmsStatus>(LMS_STATUS_KEY, (s) =>
      s ? { ...s, refreshes_remaining: data.refreshes_remaining } : s,
    );
  };

  const query = useQuery({
    queryKey: key,
    enabled: !!userId && !!connectionId,
    queryFn: async () => {
      const local = readCourseworkCache(userId!, connectionId!);
      if (local) return local;
      const data = await api<CourseworkResponse>('/api/fetch-coursework', { body: { tz: timeZone() } });
      remember(data);
      return data;
    },
    staleTime: (q) => {
      const fetched = q.state.data ? Date.parse(q.state.data.fetched_at) : 0;
      return Math.max(0, fetched + LIMITS.courseworkCacheMs - Date.now());
    },
    retry: false,
    refetchOnWindowFocus: false,
  });

  const refresh = useMutation({
    mutationFn: () => api<CourseworkResponse>('/api/fetch-coursework', { body: { force: true, tz: timeZone() } }),
    onSuccess: (data) => {
      remember(data);
      client.setQueryData(key, data);
    },
    onError: (err) => {
      if (err instanceof ApiRequestError && err.code === 'refresh_limit') {
        client.setQueryData<LmsStatus>(LMS_STATUS_KEY, (s) => (s ? { ...s, refreshes_remaining: 0 } : s));
      }
    },
  });

  // Midnight: the day's refreshes come back, and the coursework is loaded again.
  useEffect(() => {
    if (!connectionId) return;
    const timer = setTimeout(() => {
      void client.invalidateQueries({ queryKey: LMS_STATUS_KEY });
      void client.invalidateQueries({ queryKey: COURSEWORK_KEY });
    }, msUntilLocalMidnight());
    return () => clearTimeout(timer);
  }, [client, connectionId]);

  const refreshesRemaining = status?.refreshes_remaining ?? 0;
  const loading = query.isFetching || refresh.isPending;
  const error = refresh.error ?? (query.data ? null : query.error);
  return {
    data: query.data,
    loading,
    error,
    errorMessage: courseworkErrorMessage(error),
    refreshesRemaining,
    /** A forced refresh from Canvas (one of the day's three). */
    forceRefresh: () => {
      if (refreshesRemaining > 0 && !loading) refresh.mutate();
    },
    /** Loads again without forcing (server cache or Canvas). */
    reload: () => {
      refresh.reset();
      void query.refetch();
    },
    dismissError: () => refresh.reset(),
    clearCache: () => {
      if (userId) clearCourseworkCache(userId);
      client.removeQueries({ queryKey: COURSEWORK_KEY });
    },
  };
}
