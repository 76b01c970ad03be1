import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CalendarFeedResponse,
  CalendarStatus,
  GoogleCalendarsResponse,
  GoogleExportInput,
  GoogleExportResponse,
} from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import { api, ApiRequestError } from '../../lib/api.ts';

export const CALENDAR_STATUS_KEY = ['calendar', 'status'] as const;
const CALENDARS_KEY = ['calendar', 'google', 'calendars'] as const;
const FEED_KEY = ['calendar', 'feed'] as const;

/** The consent page is reached through our server, which keeps the tokens (the browser never sees them). */
export const GOOGLE_AUTHORIZE_PATH = '/api/calendar/google/authorize';

export function useCalendarStatus() {
  return useQuery({ queryKey: CALENDAR_STATUS_KEY, queryFn: () => api<CalendarStatus>('/api/calendar/status') });
}

export function useGoogleCalendars(enabled: boolean) {
  return useQuery({
    queryKey: CALENDARS_KEY,
    queryFn: () => api<GoogleCalendarsResponse>('/api/calendar/google/calendars'),
    enabled,
    staleTime: 60_000,
  });
}

export function useGoogleExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: GoogleExportInput) => api<GoogleExportResponse>('/api/calendar/google/export', { body: input }),
    onSettled: () => client.invalidateQueries({ queryKey: CALENDAR_STATUS_KEY }),
  });
}

/** Disconnects Google Calendar; the status is fetched again and the calendar list forgotten. */
export function useDisconnectGoogle() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>('/api/calendar/google', { method: 'DELETE' }),
    onSettled: async () => {
      client.removeQueries({ queryKey: CALENDARS_KEY });
      await client.invalidateQueries({ queryKey: CALENDAR_STATUS_KEY });
    },
  });
}

/** Asks the server for the .ics of these items and hands it to the browser as a download. */
export async function downloadIcs(itemIds: string[]): Promise<void> {
  let res: Response;
  try {
    res = await fetch('/api/calendar/ics', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ item_ids: itemIds }),
    });
  } catch {
    throw new ApiRequestError(0, 'network', 'Network error. Please check your connection and try again.');
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
    throw new ApiRequestError(res.status, body?.error?.code ?? 'http', body?.error?.message ?? res.statusText);
  }
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = MSG.calendar.icsFileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function useCalendarFeed(enabled: boolean) {
  return useQuery({
    queryKey: FEED_KEY,
    queryFn: () => api<CalendarFeedResponse>('/api/calendar/feed'),
    enabled,
  });
}

export function useRegenerateFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<CalendarFeedResponse>('/api/calendar/feed', { body: {} }),
    onSuccess: (data) => client.setQueryData(FEED_KEY, data),
  });
}

export function useRevokeFeed() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api<null>('/api/calendar/feed', { method: 'DELETE' }),
    onSuccess: () => client.setQueryData(FEED_KEY, { url: null }),
  });
}
