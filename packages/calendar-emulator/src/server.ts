import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CalendarApi } from './calendar-api.ts';
import { handleControl } from './control.ts';
import { escapeHtml, sendHtml, sendJson } from './http.ts';
import {
  DEFAULT_CALENDARS,
  type Authorization,
  type EmuCalendar,
  type InsertFault,
  type Revocation,
  type StoredEvent,
} from './model.ts';
import { OAuthEndpoints } from './oauth.ts';
import type { EmulatorState } from './state.ts';

export type { Authorization, EmuCalendar, InsertFault, Revocation, StoredEvent } from './model.ts';
export { CALENDAR_SCOPE, DEFAULT_CALENDARS } from './model.ts';

export const EMULATOR_CLIENT_ID = 'studybuddy-calendar-emulator.apps.example.com';
export const EMULATOR_CLIENT_SECRET = 'studybuddy-calendar-emulator-secret';

export interface CalendarEmulatorOptions {
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  /** `expires_in` of access tokens, seconds (Google: 3599). */
  expiresIn?: number;
  calendars?: EmuCalendar[];
}

export interface Emulator {
  url: string;
  /** GOOGLE_AUTH_URL, GOOGLE_TOKEN_URL, GOOGLE_REVOKE_URL and GOOGLE_CALENDAR_API_URL pointing at this emulator. */
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** The server environment that points a StudyBuddy server at this emulator. */
  env: Record<string, string>;
  calendars: EmuCalendar[];
  /** Every visit of the consent page, in order. */
  authorizations: Authorization[];
  events: StoredEvent[];
  faults: InsertFault[];
  /** Every successful revoke call, in order (the token as sent; its whole grant stopped working). */
  revocations: Revocation[];
  /** Visits that asked for consent (prompt=consent). */
  consentCount(): number;
  /** Event inserts whose summary contains `summary` (all when absent) fail with `status` (500). */
  failInsert(rule: { summary?: string; status?: number; times?: number }): string;
  /** The revoke endpoint fails with `status` (500), `times` calls (all when absent). */
  failRevoke(rule?: { status?: number; times?: number }): void;
  /** Removes insert and revoke faults. */
  clearFaults(): void;
  /** Every access token issued so far stops working (refresh tokens still do). */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

/** Starts a Google OAuth + Calendar v3 emulator; `port: 0` (default) picks a free port. */
export async function startCalendarEmulator(options: CalendarEmulatorOptions = {}): Promise<Emulator> {
  const state: EmulatorState = {
    clientId: options.clientId ?? EMULATOR_CLIENT_ID,
    clientSecret: options.clientSecret ?? EMULATOR_CLIENT_SECRET,
    expiresIn: options.expiresIn ?? 3599,
    calendars: options.calendars ?? DEFAULT_CALENDARS.map((c) => ({ ...c })),
    authorizations: [],
    tokens: new Map(),
    events: [],
    faults: [],
    revocations: [],
    revokeFault: null,
  };
  const oauth = new OAuthEndpoints(state);
  const api = new CalendarApi(state);

  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const url = new URL(req.url ?? '/', origin);
    const route = `${req.method} ${url.pathname}`;
    let work: Promise<number> | number;
    if (route === 'GET /o/oauth2/v2/auth') work = oauth.authorize(res, url);
    else if (route === 'POST /token') work = oauth.token(req, res);
    else if (route === 'POST /revoke') work = oauth.revoke(req, res, url);
    else if (url.pathname.startsWith('/calendar/v3/')) work = api.handle(req, res, url, origin);
    else if (route === 'GET /calendar/event') work = eventPage(url);
    else if (url.pathname.startsWith('/__emulator/')) work = handleControl(req, res, url, emulator);
    else work = sendJson(res, 404, { error: 'not found' });
    Promise.resolve(work).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { code: 500, message: String(err) } });
    });

    function eventPage(u: URL) {
      const eid = u.searchParams.get('eid') ?? '';
      const event = state.events.find((e) => e.htmlLink.endsWith(`eid=${eid}`));
      if (!event) return sendHtml(res, 404, '<!doctype html><title>Event not found</title><h1>Event not found</h1>');
      const b = event.body as { summary?: string; start?: { dateTime?: string }; end?: { dateTime?: string } };
      const summary = escapeHtml(String(b.summary ?? '(No title)'));
      return sendHtml(
        res,
        200,
        `<!doctype html><html lang="en"><title>${summary} - Calendar</title><h1>${summary}</h1>` +
          `<p>${escapeHtml(b.start?.dateTime ?? '')} – ${escapeHtml(b.end?.dateTime ?? '')}</p>` +
          `<p>Calendar: ${escapeHtml(event.calendarId)}</p></html>`,
      );
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : '127.0.0.1';
  const url = `http://${host}:${port}`;

  const emulator: Emulator = {
    url,
    authUrl: `${url}/o/oauth2/v2/auth`,
    tokenUrl: `${url}/token`,
    revokeUrl: `${url}/revoke`,
    apiUrl: `${url}/calendar/v3`,
    clientId: state.clientId,
    clientSecret: state.clientSecret,
    env: {
      GOOGLE_CLIENT_ID: state.clientId,
      GOOGLE_CLIENT_SECRET: state.clientSecret,
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_REVOKE_URL: `${url}/revoke`,
      GOOGLE_CALENDAR_API_URL: `${url}/calendar/v3`,
    },
    calendars: state.calendars,
    authorizations: state.authorizations,
    events: state.events,
    faults: state.faults,
    revocations: state.revocations,
    consentCount: () => state.authorizations.filter((a) => a.prompt?.split(' ').includes('consent')).length,
    failInsert: (rule) => {
      const id = randomUUID();
      state.faults.push({ id, summary: rule.summary, status: rule.status ?? 500, times: rule.times });
      return id;
    },
    failRevoke: (rule = {}) => {
      state.revokeFault = { status: rule.status ?? 500, times: rule.times };
    },
    clearFaults: () => {
      state.faults.splice(0);
      state.revokeFault = null;
    },
    expireAccessTokens: () => {
      for (const t of state.tokens.values()) if (t.kind === 'access') t.expiresAt = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return emulator;
}
