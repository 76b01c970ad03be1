import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

/** Milliseconds from `now` to just after the next local midnight. */
function msUntilLocalMidnight(now = new Date()): number {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 0, 0, 1);
  return midnight.getTime() - now.getTime();
}

/** Keeps a load in the browser cache and its refresh count in the LMS status. */
function rememberCoursework(
  client: QueryClient,
  userId: string | undefined,
  connectionId: string | null,
  data: CourseworkResponse,
) {
  if (userId && connectionId) writeCourseworkCache(userId, connectionId, data);
  client.setQueryData<LmsStatus>(LMS_STATUS_KEY, (s) =>
    s ? { ...s, refreshes_remaining: data.refreshes_remaining } : s,
  );
}

/** A load from the server, not forced: its 24-hour cache, or Canvas when that is older. */
async function loadFromServer(client: QueryClient, userId: string, connectionId: string): Promise<CourseworkResponse> {
  const data = await api<CourseworkResponse>('/api/fetch-coursework', { body: { tz: timeZone() } });
  rememberCoursework(client, userId, connectionId, data);
  return data;
}

/**
 * The coursework helper of requirements §7: memory (the query cache), then the browser cache, then the server (which
 * answers from its own 24-hour cache or Canvas). Forced refreshes are counted by the server (3 a day); the
 * count shown is the server's. At local midnight (requirements §9: the allowance resets with an automatic refresh) the
 * count is fetched again and the coursework is loaded from the server, past the browser cache, without force:
 * the server goes to Canvas when its copy is older than the cache period, and no forced refresh is spent.
 */
export function useCoursework(userId: string | undefined, status: LmsStatus | undefined) {
  const client = useQueryClient();
  const connectionId = status?.connected ? status.connection_id : null;
  const key = [...COURSEWORK_KEY, userId, connectionId] as const;

  const remember = (data: CourseworkResponse) => rememberCoursework(client, userId, connectionId, data);

  const query = useQuery({
    queryKey: key,
    enabled: !!userId && !!connectionId,
    queryFn: () => readCourseworkCache(userId!, connectionId!) ?? loadFromServer(client, userId!, connectionId!),
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

  // Midnight, every night the page stays open: the day's refreshes come back, and the coursework is loaded again.
  useEffect(() => {
    if (!userId || !connectionId) return;
    const queryKey = [...COURSEWORK_KEY, userId, connectionId];
    let timer: ReturnType<typeof setTimeout>;
    const schedule = () => {
      timer = setTimeout(() => {
        void client.invalidateQueries({ queryKey: LMS_STATUS_KEY });
        // A background load that another refetch cannot cancel; it replaces what the page shows when it lands.
        loadFromServer(client, userId, connectionId).then(
          (data) => client.setQueryData(queryKey, data),
          () => {
            // Canvas or the server failed: what is shown stays; a refresh or the next midnight tries again.
          },
        );
        schedule();
      }, msUntilLocalMidnight());
    };
    schedule();
    return () => clearTimeout(timer);
  }, [client, userId, connectionId]);

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
