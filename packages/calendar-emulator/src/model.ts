/** The emulator's state: one Google account with its calendars, issued codes and tokens, inserted events. */

export type AccessRole = 'owner' | 'writer' | 'reader' | 'freeBusyReader';

export interface EmuCalendar {
  id: string;
  summary: string;
  accessRole: AccessRole;
  primary?: boolean;
}

/** One visit of the consent page (the authorization endpoint). */
export interface Authorization {
  at: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  /** The `prompt` parameter as sent ('consent' asks the user again), null when absent. */
  prompt: string | null;
  accessType: string | null;
}

export interface StoredEvent {
  id: string;
  calendarId: string;
  htmlLink: string;
  /** The request body exactly as the client sent it. */
  body: Record<string, unknown>;
  /** The access token that created it. */
  token: string;
}

/** Makes event inserts fail: for events whose summary contains `summary` (all when absent). */
export interface InsertFault {
  id: string;
  summary?: string;
  /** HTTP status of the failure (500 by default). */
  status: number;
  /** Fails this many inserts, then is spent (all when absent). */
  times?: number;
}

export interface IssuedToken {
  kind: 'access' | 'refresh';
  scope: string;
  /** The grant the token belongs to: revoking any of its tokens revokes them all, like Google. */
  grant: string;
  /** Access tokens only (ms since the epoch). */
  expiresAt?: number;
}

/** One successful call of the revoke endpoint. */
export interface Revocation {
  at: string;
  /** The token as sent. */
  token: string;
  kind: 'access' | 'refresh';
}

/** Makes the revoke endpoint fail with `status` (`times` calls, all when absent). */
export interface RevokeFault {
  status: number;
  times?: number;
}

export const CALENDAR_SCOPE = 'https://www.googleapis.com/auth/calendar';

export const DEFAULT_CALENDARS: EmuCalendar[] = [
  { id: 'student@example.com', summary: 'student@example.com', accessRole: 'owner', primary: true },
  { id: 'coursework@group.calendar.example.com', summary: 'Coursework', accessRole: 'owner' },
  { id: 'holidays@group.calendar.example.com', summary: 'Holidays', accessRole: 'reader' },
];
