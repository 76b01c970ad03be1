import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConnectResponse, LmsStatus } from '@studybuddy/shared/lms';
import { api } from '../../lib/api.ts';
import { SESSION_KEY } from '../auth/index.ts';
import { clearCourseworkCache } from './coursework-cache.ts';

/** The browser's IANA time zone: the server counts forced refreshes per day of the user's own calendar. */
export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export const LMS_STATUS_KEY = ['lms', 'status'] as const;
export const COURSEWORK_KEY = ['lms', 'coursework'] as const;

export function useLmsStatus(enabled = true) {
  return useQuery({
    queryKey: LMS_STATUS_KEY,
    queryFn: () => api<LmsStatus>(`/api/lms/status?tz=${encodeURIComponent(timeZone())}`),
    enabled,
    staleTime: 30_000,
  });
}

/** Saves the token (it never comes back) and imports the courses; the session's profile courses change too. */
export function useConnectCanvas() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (accessToken: string) =>
      api<ConnectResponse>('/api/lms/connect', { body: { access_token: accessToken } }),
    onSuccess: async (data) => {
      client.setQueryData(LMS_STATUS_KEY, data.status);
      client.removeQueries({ queryKey: COURSEWORK_KEY });
      await client.invalidateQueries({ queryKey: SESSION_KEY });
    },
  });
}

/** Disconnect clears the token and address on the server, and every cached copy of the coursework. */
export function useDisconnectCanvas(userId: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>('/api/lms/disconnect', { body: {} }),
    onSuccess: async () => {
      if (userId) clearCourseworkCache(userId);
      client.removeQueries({ queryKey: COURSEWORK_KEY });
      await client.invalidateQueries({ queryKey: LMS_STATUS_KEY });
    },
  });
}
