import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API, type AccountSession } from '@studybuddy/shared/account';
import { MSG } from '@studybuddy/shared/messages';
import { sessions, users } from '../../db/schema.ts';
import { WS_CLOSE_SIGNED_OUT } from '@studybuddy/shared/realtime';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { post, sessionCookie } from './auth-test-helpers.ts';
import { sessionRef } from './account-security.service.ts';
import { LAST_SEEN_EVERY_MS } from './sessions.repository.ts';

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('account controls: password change and signed-in browsers', () => {
  let t: TestApp;
  let url: string;
  const open: WsTestClient[] = [];
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(() => t.close());

  /** Signs the student in through the log-in route, as a browser with this User-Agent; its cookie. */
  async function logIn(user: TestUser, userAgent: string, password = 'password123'): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'user-agent': userAgent },
      payload: { email: user.email, password },
    });
    expect(res.statusCode, res.body).toBe(200);
    return sessionCookie(res)!;
  }

  async function socket(cookie: string) {
    const client = await WsTestClient.connect(url, cookie);
    open.push(client);
    await client.waitFor((f) => f.type === 'hello');
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    return (ms = 3000) =>
      Promise.race([closed, new Promise<'open'>((resolve) => setTimeout(() => resolve('open'), ms))]);
  }

  const whoIs = async (cookie: string) =>
    (await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json<{ user: { id: string } | null }>()
      .user;
  const list = async (cookie: string) => {
    const res = await t.app.inject({ url: ACCOUNT_API.sessions, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ sessions: AccountSession[] }>().sessions;
  };
  const changePassword = (cookie: string, currentPassword: string, newPassword: string) =>
    post(t.app, ACCOUNT_API.password, { currentPassword, newPassword }, cookie);

  it('refuses a wrong current password with a clear text and changes nothing', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const other = await logIn(ada, FIREFOX_WINDOWS);
    const res = await changePassword(ada.cookie, 'not-my-password', 'brand-new-password');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'bad_request',
      message: MSG.account.wrongCurrentPassword,
      field: 'currentPassword',
    });
    expect(await whoIs(other)).toMatchObject({ id: ada.id });
    await logIn(ada, CHROME_LINUX, 'password123');
    // A too-short new password is refused by the reset's rule; signed out: 401.
    expect((await changePassword(ada.cookie, 'password123', '123')).json().error.message).toBe(MSG.reset.tooShort);
    expect((await changePassword('', 'password123', 'brand-new-password')).statusCode).toBe(401);
  });

  it('a new password ends every other session and closes their sockets; this browser stays signed in', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const bob = await createUser(t.app, { name: 'Bob' });
    const mine = await logIn(ada, CHROME_LINUX);
    const other = await logIn(ada, FIREFOX_WINDOWS);
    const [mySocket, otherSocket, bobSocket] = [await socket(mine), await socket(other), await socket(bob.cookie)];

    const res = await changePassword(mine, 'password123', 'brand-new-password');
    expect(res.statusCode, res.body).toBe(200);
    expect(await otherSocket()).toBe(WS_CLOSE_SIGNED_OUT);
    expect(await whoIs(other)).toBeNull();
    expect(await whoIs(ada.cookie)).toBeNull();
    expect(await whoIs(mine)).toMatchObject({ id: ada.id });
    expect(await mySocket(300)).toBe('open');
    expect(await bobSocket(0)).toBe('open');
    // The old password is gone, the new one works.
    const old = await post(t.app, '/api/auth/login', { email: ada.email, password: 'password123' });
    expect(old.json().error.message).toBe(MSG.login.wrongPassword);
    await logIn(ada, CHROME_LINUX, 'brand-new-password');
  });

  it('a social-only account is told how to get a password', async () => {
    const social = await createUser(t.app);
    await t.app.ctx.db.update(users).set({ passwordHash: null }).where(eq(users.id, social.id));
    const res = await changePassword(social.cookie, '', 'brand-new-password');
    expect(res.json().error.message).toBe(MSG.account.noPasswordYet);
  });

  it('lists the browsers (created, last seen, user agent, this one marked) and signs one out', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const mine = await logIn(ada, CHROME_LINUX);
    const other = await logIn(ada, FIREFOX_WINDOWS);
    const otherSocket = await socket(other);
    const listed = await list(mine);
    // The test helper's session, the Chrome one and the Firefox one.
    expect(listed).toHaveLength(3);
    const current = listed.filter((s) => s.current);
    expect(current).toEqual([expect.objectContaining({ userAgent: CHROME_LINUX })]);
    const firefox = listed.find((s) => s.userAgent === FIREFOX_WINDOWS)!;
    expect(new Date(firefox.createdAt).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(firefox.lastSeenAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The session's secret never leaves the server: the id is a reference of its own.
    const stored = await t.app.ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, ada.id));
    for (const s of listed) expect(stored.map((r) => r.id)).not.toContain(s.id);

    const res = await t.app.inject({
      method: 'DELETE',
      url: ACCOUNT_API.session.replace(':id', firefox.id),
      headers: { cookie: mine },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await otherSocket()).toBe(WS_CLOSE_SIGNED_OUT);
    expect(await whoIs(other)).toBeNull();
    expect((await list(mine)).map((s) => s.userAgent)).not.toContain(FIREFOX_WINDOWS);
    // Again: already ended.
    const again = await t.app.inject({
      method: 'DELETE',
      url: ACCOUNT_API.session.replace(':id', firefox.id),
      headers: { cookie: mine },
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().error.message).toBe(MSG.account.sessionNotFound);
  });

  it("another student's session id is a 404 and leaves that session alone", async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const eve = await createUser(t.app, { name: 'Eve' });
    const adaSessions = await list(ada.cookie);
    for (const id of [adaSessions[0]!.id, 'made-up-id']) {
      const res = await t.app.inject({
        method: 'DELETE',
        url: ACCOUNT_API.session.replace(':id', id),
        headers: { cookie: eve.cookie },
      });
      expect(res.statusCode).toBe(404);
    }
    // Even the raw session id (the hash of the cookie) of another student names nothing.
    const [raw] = await t.app.ctx.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, ada.id));
    const res = await t.app.inject({
      method: 'DELETE',
      url: ACCOUNT_API.session.replace(':id', raw!.id.slice(0, 100)),
      headers: { cookie: eve.cookie },
    });
    expect(res.statusCode).toBe(404);
    expect(await whoIs(ada.cookie)).toMatchObject({ id: ada.id });
    expect(sessionRef(raw!.id)).toBe(adaSessions[0]!.id);
  });

  it('signs out everywhere else: every other session and socket ends, this one stays', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const mine = await logIn(ada, CHROME_LINUX);
    const others = [ada.cookie, await logIn(ada, FIREFOX_WINDOWS)];
    const sockets = await Promise.all(others.map((c) => socket(c)));
    const mySocket = await socket(mine);
    const res = await post(t.app, ACCOUNT_API.signOutOthers, {}, mine);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ended: 2 });
    for (const closed of sockets) expect(await closed()).toBe(WS_CLOSE_SIGNED_OUT);
    for (const c of others) expect(await whoIs(c)).toBeNull();
    expect(await mySocket(300)).toBe('open');
    expect(await list(mine)).toEqual([expect.objectContaining({ current: true, userAgent: CHROME_LINUX })]);
    expect((await post(t.app, ACCOUNT_API.signOutOthers, {}, mine)).json()).toEqual({ ended: 0 });
  });

  it('last seen moves forward at most once every few minutes, not on every request', async () => {
    const ada = await createUser(t.app, { name: 'Ada' });
    const long = new Date(Date.now() - LAST_SEEN_EVERY_MS - 60_000);
    await t.app.ctx.db.update(sessions).set({ lastSeenAt: long }).where(eq(sessions.userId, ada.id));
    await whoIs(ada.cookie);
    const [after] = await t.app.ctx.db.select().from(sessions).where(eq(sessions.userId, ada.id));
    expect(after!.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    // A minute ago: recent enough, left as it is.
    const recent = new Date(Date.now() - 60_000);
    await t.app.ctx.db.update(sessions).set({ lastSeenAt: recent }).where(eq(sessions.userId, ada.id));
    await whoIs(ada.cookie);
    const [still] = await t.app.ctx.db.select().from(sessions).where(eq(sessions.userId, ada.id));
    expect(still!.lastSeenAt.getTime()).toBe(recent.getTime());
  });
});
