import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startCalendarEmulator, type Emulator } from '@studybuddy/calendar-emulator/server';
import type { CalendarStatus, GoogleCalendarsResponse, GoogleExportResponse } from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import { PROFILE_API } from '@studybuddy/shared/profile';
import { calendarGoogleTokens, profiles } from '../../db/schema.ts';
import { decryptSecret } from '../../platform/crypto.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { inDays, item, seedCoursework } from './calendar-test-helpers.ts';

let emu: Emulator;
let t: TestApp;
let ada: TestUser;
let bo: TestUser;
/** Every body and header the browser could see: no Google token may be in one. */
const seen: string[] = [];

const due = { essay1: inDays(3), essay2: inDays(5), quiz: inDays(7), past: inDays(-2) };

async function call<T>(user: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  const res = await t.app.inject({
    method,
    url,
    headers: user ? { cookie: user.cookie } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
  seen.push(res.body, JSON.stringify(res.headers));
  return { status: res.statusCode, body: (res.body ? res.json() : null) as T, headers: res.headers };
}

type ErrorBody = { error: { code: string; message: string; field?: string } };

/** The whole consent round trip: our authorize route, the emulator's consent page, our callback. */
async function connectGoogle(user: TestUser, tamper?: (callback: URL) => void) {
  const start = await t.app.inject({
    method: 'GET',
    url: '/api/calendar/google/authorize',
    headers: { cookie: user.cookie },
  });
  expect(start.statusCode).toBe(302);
  const consentUrl = new URL(start.headers.location as string);
  const stateCookie = String(start.headers['set-cookie']).split(';')[0]!;
  const consent = await fetch(consentUrl, { redirect: 'manual' });
  expect(consent.status).toBe(302);
  const callback = new URL(consent.headers.get('location')!);
  tamper?.(callback);
  const done = await t.app.inject({
    method: 'GET',
    url: callback.pathname + callback.search,
    headers: { cookie: `${user.cookie}; ${stateCookie}` },
  });
  seen.push(done.body, JSON.stringify(done.headers));
  return { consentUrl, callback, location: done.headers.location as string };
}

const status = (user: TestUser) => call<CalendarStatus>(user, 'GET', '/api/calendar/status');
const exportTo = (user: TestUser, body: unknown) =>
  call<GoogleExportResponse & ErrorBody>(user, 'POST', '/api/calendar/google/export', body);
const tokensRow = async (user: TestUser) =>
  (await t.app.ctx.db.select().from(calendarGoogleTokens).where(eq(calendarGoogleTokens.userId, user.id)))[0];
const gcalEnabledOf = async (user: TestUser) =>
  (await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user.id)))[0]?.gcalEnabled;
const disconnect = (user: TestUser | null) => call<ErrorBody | null>(user, 'DELETE', '/api/calendar/google');
/** The refresh token as Google issued it (the server keeps it encrypted). */
const storedRefreshToken = async (user: TestUser) =>
  decryptSecret(
    t.app.ctx.config.secretKey,
    (await tokensRow(user))!.refreshToken!,
    `google-calendar:refresh:${user.id}`,
  );
/** Asks the emulated Google directly whether a refresh token still works. */
async function refreshAtGoogle(refreshToken: string) {
  const res = await fetch(emu.tokenUrl, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: emu.clientId,
      client_secret: emu.clientSecret,
    }),
  });
  return { status: res.status, error: ((await res.json()) as { error?: string }).error };
}
const accessTokenWorks = async (token: string) =>
  (await fetch(`${emu.apiUrl}/users/me/calendarList`, { headers: { Authorization: `Bearer ${token}` } })).status ===
  200;

beforeAll(async () => {
  emu = await startCalendarEmulator();
  t = await createTestApp({ ...emu.env, RATE_LIMITS: 'false' });
  ada = await createUser(t.app, { name: 'Ada' });
  bo = await createUser(t.app, { name: 'Bo' });
  await seedCoursework(t.app, ada, [
    item('a1', 'Essay 1', due.essay1),
    item('a2', 'Essay 2', due.essay2),
    item('quiz_3', 'Quiz 3', due.quiz),
    item('a4', 'Reading (no due date)', null),
  ]);
  await seedCoursework(t.app, bo, [item('b1', 'Bo private lab', inDays(4))]);
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});
afterEach(() => emu.clearFaults());

describe('calendar routes need a signed-in user', () => {
  it('answers 401 without a session', async () => {
    for (const [method, url] of [
      ['GET', '/api/calendar/status'],
      ['GET', '/api/calendar/google/authorize'],
      ['GET', '/api/calendar/google/calendars'],
      ['POST', '/api/calendar/google/export'],
      ['DELETE', '/api/calendar/google'],
    ] as const) {
      const res = await call<ErrorBody>(null, method, url, method === 'POST' ? {} : undefined);
      expect(res.status, url).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
  });
});

describe('Google Calendar connect (§4)', () => {
  it('starts not connected, refuses to export, and asks for consent the first time (gcal_enabled false)', async () => {
    expect((await status(ada)).body).toEqual({ google: { configured: true, connected: false, calendar_id: null } });
    const refused = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['a1'] });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(MSG.calendar.notConnected);

    const { consentUrl, location } = await connectGoogle(ada);
    expect(consentUrl.origin + consentUrl.pathname).toBe(emu.authUrl);
    expect(consentUrl.searchParams.get('prompt')).toBe('consent');
    expect(consentUrl.searchParams.get('scope')).toBe('https://www.googleapis.com/auth/calendar');
    expect(consentUrl.searchParams.get('redirect_uri')).toBe('http://localhost:3000/api/calendar/google/callback');
    expect(location).toBe('/assignments?calendar=connected');
    expect(emu.consentCount()).toBe(1);

    expect((await status(ada)).body.google.connected).toBe(true);
    const [profile] = await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, ada.id));
    expect(profile!.gcalEnabled).toBe(true);
    // Stored encrypted, with the expiry from expires_in (3599 s).
    const row = (await tokensRow(ada))!;
    expect(row.accessToken).toMatch(/^v1\./);
    expect(row.refreshToken).toMatch(/^v1\./);
    expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(3500_000);
    expect(row.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(3599_000);
  });

  it('lists the calendars events can be added to (id, summary)', async () => {
    const res = await call<GoogleCalendarsResponse>(ada, 'GET', '/api/calendar/google/calendars');
    expect(res.status).toBe(200);
    expect(res.body.calendars).toEqual([
      { id: 'student@example.com', summary: 'student@example.com', primary: true },
      { id: 'coursework@group.calendar.example.com', summary: 'Coursework', primary: false },
    ]);
  });

  it('refuses a forged or foreign state and a denied consent, storing nothing', async () => {
    const forged = await connectGoogle(bo, (u) => u.searchParams.set('state', 'forged'));
    expect(forged.location).toBe('/assignments?calendar=failed');
    const denied = await connectGoogle(bo, (u) => {
      u.searchParams.delete('code');
      u.searchParams.set('error', 'access_denied');
    });
    expect(denied.location).toBe('/assignments?calendar=denied');
    expect(await tokensRow(bo)).toBeUndefined();
    // Ada's state cookie does not work for Bo's session.
    const start = await t.app.inject({
      method: 'GET',
      url: '/api/calendar/google/authorize',
      headers: { cookie: ada.cookie },
    });
    const consent = await fetch(start.headers.location as string, { redirect: 'manual' });
    const cb = new URL(consent.headers.get('location')!);
    const swapped = await t.app.inject({
      method: 'GET',
      url: cb.pathname + cb.search,
      headers: { cookie: `${bo.cookie}; ${String(start.headers['set-cookie']).split(';')[0]}` },
    });
    expect(swapped.headers.location).toBe('/assignments?calendar=failed');
    expect(await tokensRow(bo)).toBeUndefined();
    // Without a session the callback goes to log-in.
    const anon = await t.app.inject({ method: 'GET', url: cb.pathname + cb.search });
    expect(anon.headers.location).toBe('/login');
  });
});

describe('export to Google (§3 event, §8 failure)', () => {
  it('inserts one §3 event per item in order, answers the first link, and remembers the calendar', async () => {
    const before = emu.events.length;
    const res = await exportTo(ada, {
      calendar_id: 'coursework@group.calendar.example.com',
      item_ids: ['a2', 'a1', 'quiz_3', 'a1'],
    });
    expect(res.status).toBe(200);
    const created = emu.events.slice(before);
    expect(created.map((e) => e.body)).toEqual(
      [
        ['Essay 2', due.essay2],
        ['Essay 1', due.essay1],
        ['Quiz 3', due.quiz],
      ].map(([name, end]) => ({
        summary: name,
        description: 'Your assignment is due.',
        start: { dateTime: new Date(Date.parse(end!) - 10 * 60_000).toISOString() },
        end: { dateTime: new Date(end!).toISOString() },
        reminders: {
          useDefault: false,
          overrides: [
            { method: 'email', minutes: 1440 },
            { method: 'popup', minutes: 10 },
          ],
        },
      })),
    );
    expect(created.every((e) => e.calendarId === 'coursework@group.calendar.example.com')).toBe(true);
    expect(res.body).toEqual({
      results: [
        { id: 'a2', name: 'Essay 2', ok: true, html_link: created[0]!.htmlLink },
        { id: 'a1', name: 'Essay 1', ok: true, html_link: created[1]!.htmlLink },
        { id: 'quiz_3', name: 'Quiz 3', ok: true, html_link: created[2]!.htmlLink },
      ],
      first_link: created[0]!.htmlLink,
      failed: [],
    });
    expect((await status(ada)).body.google.calendar_id).toBe('coursework@group.calendar.example.com');
  });

  it('reuses the token while it is valid: no second consent, the same access token', async () => {
    const visits = emu.authorizations.length;
    const before = emu.events.length;
    const res = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['a1'] });
    expect(res.body.failed).toEqual([]);
    expect(emu.authorizations.length).toBe(visits);
    expect(new Set(emu.events.map((e) => e.token)).size).toBe(1);
    expect(emu.events.length).toBe(before + 1);
  });

  it('refreshes an expired token (ours or Google’s) without asking the user again', async () => {
    const consents = emu.consentCount();
    const firstToken = emu.events[0]!.token;
    await t.app.ctx.db
      .update(calendarGoogleTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(calendarGoogleTokens.userId, ada.id));
    expect((await status(ada)).body.google.connected).toBe(true);
    const res = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['a1'] });
    expect(res.body.failed).toEqual([]);
    const secondToken = emu.events.at(-1)!.token;
    expect(secondToken).not.toBe(firstToken);

    emu.expireAccessTokens();
    const again = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['a2'] });
    expect(again.body.failed).toEqual([]);
    expect(emu.events.at(-1)!.token).not.toBe(secondToken);
    expect(emu.consentCount()).toBe(consents);
  });

  it('a failing event is named; the others are still created', async () => {
    emu.failInsert({ summary: 'Essay 2' });
    const before = emu.events.length;
    const res = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['a1', 'a2', 'quiz_3'] });
    expect(res.status).toBe(200);
    expect(res.body.failed).toEqual(['Essay 2']);
    expect(res.body.results.map((r) => [r.name, r.ok])).toEqual([
      ['Essay 1', true],
      ['Essay 2', false],
      ['Quiz 3', true],
    ]);
    expect(emu.events.slice(before).map((e) => (e.body as { summary: string }).summary)).toEqual(['Essay 1', 'Quiz 3']);
    expect(res.body.first_link).toBe(emu.events[before]!.htmlLink);

    // A calendar the user cannot write to fails every item, each named.
    const reader = await exportTo(ada, {
      calendar_id: 'holidays@group.calendar.example.com',
      item_ids: ['a1', 'quiz_3'],
    });
    expect(reader.body).toMatchObject({ failed: ['Essay 1', 'Quiz 3'], first_link: null });
  });

  it('validates the request and only exports the user’s own dated items', async () => {
    const cases: [unknown, string, string][] = [
      [{ item_ids: ['a1'] }, MSG.calendar.calendarRequired, 'calendar_id'],
      [{ calendar_id: 'student@example.com', item_ids: [] }, MSG.calendar.noneSelected, 'item_ids'],
      [{ calendar_id: 'student@example.com', item_ids: 'a1' }, MSG.calendar.noneSelected, 'item_ids'],
      [
        { calendar_id: 'student@example.com', item_ids: ['a1', 'a4'] },
        MSG.calendar.noDueDate('Reading (no due date)'),
        'item_ids',
      ],
      // Bo's item is not Ada's: unknown.
      [{ calendar_id: 'student@example.com', item_ids: ['b1'] }, MSG.calendar.unknownItems, 'item_ids'],
    ];
    const before = emu.events.length;
    for (const [body, message, field] of cases) {
      const res = await exportTo(ada, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ message, field });
    }
    expect(emu.events.length).toBe(before);
    const noCache = await createUser(t.app);
    const res = await exportTo(noCache, { calendar_id: 'x', item_ids: ['a1'] });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe(MSG.calendar.noCoursework);
  });

  it('a second connect after gcal_enabled does not ask for consent, and keeps the refresh token', async () => {
    const refresh = (await tokensRow(ada))!.refreshToken;
    const consents = emu.consentCount();
    const { consentUrl, location } = await connectGoogle(ada);
    expect(consentUrl.searchParams.has('prompt')).toBe(false);
    expect(location).toBe('/assignments?calendar=connected');
    expect(emu.consentCount()).toBe(consents);
    // Google sends no new refresh token without consent: the stored one stays.
    expect((await tokensRow(ada))!.refreshToken).toBe(refresh);
    const res = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['quiz_3'] });
    expect(res.body.failed).toEqual([]);
  });

  it('never shows a Google token to the browser', () => {
    const tokens = emu.events.map((e) => e.token);
    expect(tokens.length).toBeGreaterThan(0);
    const all = seen.join('\n');
    for (const token of tokens) expect(all).not.toContain(token);
    expect(all).not.toMatch(/ya29\.|1\/\/emu-refresh/);
  });
});

describe('disconnect Google Calendar', () => {
  it('revokes the grant at Google, deletes the tokens and the chosen calendar, and resets gcal_enabled', async () => {
    expect((await status(ada)).body.google).toMatchObject({ connected: true, calendar_id: 'student@example.com' });
    const refresh = await storedRefreshToken(ada);
    const accessTokens = [...new Set(emu.events.map((e) => e.token))];
    expect(await accessTokenWorks(accessTokens.at(-1)!)).toBe(true);
    const before = emu.revocations.length;

    const res = await disconnect(ada);
    expect(res.status).toBe(204);
    expect(emu.revocations.slice(before)).toEqual([{ at: expect.any(String), token: refresh, kind: 'refresh' }]);
    // Revoking the refresh token ended the whole grant at Google, its access tokens too.
    expect(await refreshAtGoogle(refresh)).toEqual({ status: 400, error: 'invalid_grant' });
    for (const token of accessTokens) expect(await accessTokenWorks(token)).toBe(false);

    expect(await tokensRow(ada)).toBeUndefined();
    expect(await gcalEnabledOf(ada)).toBe(false);
    expect((await status(ada)).body).toEqual({ google: { configured: true, connected: false, calendar_id: null } });
    const refused = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['a1'] });
    expect(refused.status).toBe(409);
    expect((refused.body as ErrorBody).error.message).toBe(MSG.calendar.notConnected);
  });

  it('the next connect asks for consent again and gets a new grant that works', async () => {
    const consents = emu.consentCount();
    const revoked = emu.revocations.at(-1)!.token;
    const { consentUrl, location } = await connectGoogle(ada);
    expect(consentUrl.searchParams.get('prompt')).toBe('consent');
    expect(location).toBe('/assignments?calendar=connected');
    expect(emu.consentCount()).toBe(consents + 1);
    expect(await gcalEnabledOf(ada)).toBe(true);
    expect(await storedRefreshToken(ada)).not.toBe(revoked);
    expect((await status(ada)).body.google).toEqual({ configured: true, connected: true, calendar_id: null });
    const res = await exportTo(ada, { calendar_id: 'student@example.com', item_ids: ['quiz_3'] });
    expect(res.body.failed).toEqual([]);
  });

  it('a failing revoke call still disconnects locally', async () => {
    emu.failRevoke({ status: 503 });
    const refresh = await storedRefreshToken(ada);
    const before = emu.revocations.length;
    const res = await disconnect(ada);
    expect(res.status).toBe(204);
    expect(emu.revocations.length).toBe(before);
    // Google did not revoke anything, yet nothing is left here.
    expect((await refreshAtGoogle(refresh)).status).toBe(200);
    expect(await tokensRow(ada)).toBeUndefined();
    expect(await gcalEnabledOf(ada)).toBe(false);
    expect((await status(ada)).body.google.connected).toBe(false);
  });

  it('an unreachable revoke endpoint still disconnects locally', async () => {
    await connectGoogle(ada);
    expect(await tokensRow(ada)).toBeDefined();
    const google = t.app.ctx.config.google!;
    const revokeUrl = google.revokeUrl;
    google.revokeUrl = 'http://127.0.0.1:9/revoke'; // nothing listens there
    try {
      expect((await disconnect(ada)).status).toBe(204);
    } finally {
      google.revokeUrl = revokeUrl;
    }
    expect(await tokensRow(ada)).toBeUndefined();
    expect(await gcalEnabledOf(ada)).toBe(false);
  });

  it('answers 204 when nothing is connected, without calling Google', async () => {
    const before = emu.revocations.length;
    expect((await disconnect(bo)).status).toBe(204);
    expect(emu.revocations.length).toBe(before);
    expect(await gcalEnabledOf(bo)).toBe(false);
  });

  it('deleting the account revokes the grant too, and a failing revoke does not stop the deletion', async () => {
    const deleteAccount = (user: TestUser) =>
      t.app.inject({
        method: 'DELETE',
        url: PROFILE_API.account,
        headers: { cookie: user.cookie },
        payload: { password: 'password123' },
      });
    const cy = await createUser(t.app, { name: 'Cy' });
    await connectGoogle(cy);
    const refresh = await storedRefreshToken(cy);
    const before = emu.revocations.length;
    expect((await deleteAccount(cy)).statusCode).toBe(200);
    expect(emu.revocations.slice(before).map((r) => r.token)).toEqual([refresh]);
    expect(await tokensRow(cy)).toBeUndefined();

    const dee = await createUser(t.app, { name: 'Dee' });
    await connectGoogle(dee);
    emu.failRevoke({ status: 500 });
    expect((await deleteAccount(dee)).statusCode).toBe(200);
    expect(emu.revocations.length).toBe(before + 1);
    expect(await tokensRow(dee)).toBeUndefined();
    expect(await gcalEnabledOf(dee)).toBeUndefined();
  });
});

describe('without Google credentials', () => {
  it('says Google is not configured and its routes answer 404', async () => {
    const bare = await createTestApp({ RATE_LIMITS: 'false' });
    try {
      const user = await createUser(bare.app);
      const get = (url: string) => bare.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
      expect((await get('/api/calendar/status')).json()).toEqual({
        google: { configured: false, connected: false, calendar_id: null },
      });
      for (const url of ['/api/calendar/google/authorize', '/api/calendar/google/calendars']) {
        const res = await get(url);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.message).toBe(MSG.calendar.notConfigured);
      }
    } finally {
      await bare.close();
    }
  });
});
