import type { CalendarEventBody, GoogleCalendarEntry } from '@studybuddy/shared/calendar';
import { trimTrailing } from '@studybuddy/shared/text-scan';

import type { GoogleConfig } from '../../config.ts';

export type { GoogleConfig };

export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';
const TIMEOUT_MS = 15_000;
/** Revoking is best-effort: a slow Google must not keep the user waiting long. */
const REVOKE_TIMEOUT_MS = 5_000;

/** Google refused the token (401) or the grant (invalid_grant): the user has to authorize again. */
export class GoogleAuthError extends Error {}
/** Any other failure: an HTTP status from Google, or null when Google could not be reached. */
export class GoogleApiError extends Error {
  constructor(
    readonly status: number | null,
    message: string,
  ) {
    super(message);
  }
}

export interface GoogleTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date;
  scope: string;
}

/** The consent page address (OAuth 2.0 authorization code flow for web servers). */
export function authorizationUrl(
  google: GoogleConfig,
  opts: { redirectUri: string; state: string; consent: boolean; loginHint?: string },
): string {
  const url = new URL(google.authUrl);
  url.searchParams.set('client_id', google.clientId);
  url.searchParams.set('redirect_uri', opts.redirectUri);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', CALENDAR_SCOPE);
  url.searchParams.set('access_type', 'offline');
  url.searchParams.set('include_granted_scopes', 'true');
  url.searchParams.set('state', opts.state);
  if (opts.consent) url.searchParams.set('prompt', 'consent');
  if (opts.loginHint) url.searchParams.set('login_hint', opts.loginHint);
  return url.toString();
}

async function call(input: string, init: RequestInit, timeoutMs = TIMEOUT_MS): Promise<Response> {
  try {
    return await fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
  } catch {
    throw new GoogleApiError(null, 'Google could not be reached');
  }
}

async function tokenRequest(google: GoogleConfig, form: Record<string, string>, now: Date): Promise<GoogleTokens> {
  const res = await call(google.tokenUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: new URLSearchParams({ ...form, client_id: google.clientId, client_secret: google.clientSecret }),
  });
  const body = (await res.json().catch(() => null)) as {
    access_token?: unknown;
    refresh_token?: unknown;
    expires_in?: unknown;
    scope?: unknown;
    error?: unknown;
  } | null;
  if (!res.ok) {
    if (body?.error === 'invalid_grant' || res.status === 401)
      throw new GoogleAuthError(String(body?.error ?? res.status));
    throw new GoogleApiError(res.status, `token endpoint answered ${res.status}`);
  }
  const expiresIn = Number(body?.expires_in);
  if (typeof body?.access_token !== 'string' || !body.access_token || !Number.isFinite(expiresIn)) {
    throw new GoogleApiError(res.status, 'token endpoint answered without a token');
  }
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : null,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
    scope: typeof body.scope === 'string' ? body.scope : CALENDAR_SCOPE,
  };
}

export function exchangeCode(google: GoogleConfig, code: string, redirectUri: string, now = new Date()) {
  return tokenRequest(google, { grant_type: 'authorization_code', code, redirect_uri: redirectUri }, now);
}

export function refreshAccessToken(google: GoogleConfig, refreshToken: string, now = new Date()) {
  return tokenRequest(google, { grant_type: 'refresh_token', refresh_token: refreshToken }, now);
}

/**
 * Revokes a token at Google; a refresh token revokes the whole grant (its access tokens too). The token goes in
 * the form body, not the address, so it stays out of logs. A token Google no longer knows counts as revoked.
 */
export async function revokeToken(google: GoogleConfig, token: string): Promise<void> {
  const res = await call(
    google.revokeUrl,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ token }),
    },
    REVOKE_TIMEOUT_MS,
  );
  const body = (await res.json().catch(() => null)) as { error?: unknown } | null;
  if (res.ok || (res.status === 400 && body?.error === 'invalid_token')) return;
  throw new GoogleApiError(res.status, `revoke endpoint answered ${res.status}`);
}

async function apiCall<T>(google: GoogleConfig, token: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await call(`${trimTrailing(google.apiUrl, '/')}${path}`, {
    ...init,
    headers: { ...init.headers, Authorization: `Bearer ${token}`, Accept: 'application/json' },
  });
  const body = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (res.status === 401) throw new GoogleAuthError('Google refused the access token');
  if (!res.ok || body === null) {
    throw new GoogleApiError(res.status, body?.error?.message ?? `Google answered ${res.status}`);
  }
  return body;
}

interface CalendarListPage {
  items?: { id?: string; summary?: string; summaryOverride?: string; primary?: boolean }[];
  nextPageToken?: string;
}

/** The calendars the user can add events to (id and summary), all pages. */
export async function listCalendars(google: GoogleConfig, token: string): Promise<GoogleCalendarEntry[]> {
  const out: GoogleCalendarEntry[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < 20; page++) {
    const q = new URLSearchParams({ minAccessRole: 'writer', maxResults: '250' });
    if (pageToken) q.set('pageToken', pageToken);
    const body = await apiCall<CalendarListPage>(google, token, `/users/me/calendarList?${q}`);
    for (const c of body.items ?? []) {
      if (c.id) out.push({ id: c.id, summary: c.summaryOverride ?? c.summary ?? c.id, primary: c.primary === true });
    }
    pageToken = body.nextPageToken;
    if (!pageToken) break;
  }
  return out;
}

/** Inserts one event; its link (htmlLink). */
export async function insertEvent(
  google: GoogleConfig,
  token: string,
  calendarId: string,
  event: CalendarEventBody,
): Promise<string> {
  const body = await apiCall<{ htmlLink?: string }>(
    google,
    token,
    `/calendars/${encodeURIComponent(calendarId)}/events`,
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(event),
    },
  );
  // The browser opens this link: only web addresses.
  if (typeof body.htmlLink !== 'string' || !/^https?:\/\//i.test(body.htmlLink)) {
    throw new GoogleApiError(200, 'Google answered without an event link');
  }
  return body.htmlLink;
}
