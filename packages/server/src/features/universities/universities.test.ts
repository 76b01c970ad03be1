import { randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { ConnectResponse, LmsStatus } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import type { SessionInfo } from '@studybuddy/shared/session';
import type { UniversitiesList } from '@studybuddy/shared/universities';
import { oauthIdentities, users } from '../../db/schema.ts';
import { seedUser } from '../../demo/seed-users.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { DEFAULT_UNIVERSITIES } from '../../universities-config.ts';
import {
  captureMail,
  logIn,
  post,
  sessionCookie,
  signUpVerified,
  type MailCapture,
} from '../auth/auth-test-helpers.ts';
import { startOidcProvider, type TestOidcProvider } from '../auth/oidc-test-provider.ts';

const PUBLIC_URL = 'http://localhost:3000';

/**
 * The setting of these tests: UCLA as in the spec, a fourth university (Oxford) whose Canvas is the emulator, one
 * without an LMS, Carnegie Mellon closed to sign-ups ("signUp": false), and Wisconsin removed.
 */
function universitiesFile(canvasUrl: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'sb-universities-')), 'universities.json');
  const [ucla, cmu] = DEFAULT_UNIVERSITIES;
  writeFileSync(
    file,
    JSON.stringify({
      universities: [
        ucla,
        { key: 'OXF', name: 'University of Oxford', domains: ['ox.ac.uk'], lms: { kind: 'canvas', url: canvasUrl } },
        { key: 'NOLMS', name: 'College Without Canvas', domains: ['nolms.edu'] },
        { ...cmu, signUp: false },
      ],
    }),
  );
  return file;
}

describe('universities from UNIVERSITIES_FILE', () => {
  let emu: Emulator;
  let provider: TestOidcProvider;
  let mail: MailCapture;
  let t: TestApp;

  beforeAll(async () => {
    emu = await startEmulator({ throttle: false });
    provider = await startOidcProvider({
      redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback`,
      accounts: {
        newOxford: { email: 'ola@ox.ac.uk', emailVerified: true },
        newCmu: { email: 'new@andrew.cmu.edu', emailVerified: true },
        newWisc: { email: 'new@wisc.edu', emailVerified: true },
        oldCmu: { email: 'old@andrew.cmu.edu', emailVerified: true },
        oldWisc: { email: 'old@wisc.edu', emailVerified: true },
        profileless: { email: 'never@wisc.edu', emailVerified: true },
      },
    });
    mail = captureMail();
    t = await createTestApp(
      {
        PUBLIC_URL,
        RATE_LIMITS: 'false',
        UNIVERSITIES_FILE: universitiesFile(emu.url),
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
      },
      { mailer: mail, lms: { client: { backoffMs: 5, maxBackoffMs: 20, timeoutMs: 2_000 } } },
    );
    // Students who joined under the spec's three, before this file: Carnegie Mellon and (removed) Wisconsin.
    for (const email of ['old@andrew.cmu.edu', 'old@wisc.edu']) {
      await seedUser(t.app.ctx.db, { email }, DEFAULT_UNIVERSITIES);
    }
    // A Wisconsin account that never signed in (no profile), made before Wisconsin was removed.
    await t.app.ctx.db.insert(users).values({
      id: randomUUID(),
      email: 'never@wisc.edu',
      passwordHash: await hashPassword('password123'),
      emailVerified: true,
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
    await emu?.close();
  });

  const userRow = async (email: string) => (await t.app.ctx.db.select().from(users).where(eq(users.email, email)))[0];
  const session = async (cookie: string) =>
    (await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json<SessionInfo>();

  it('tells the web app the universities open for sign-up, without their LMS address', async () => {
    const res = await t.app.inject({ url: '/api/universities' });
    expect(res.statusCode).toBe(200);
    expect(res.json<UniversitiesList>()).toEqual({
      universities: [
        { key: 'UCLA', name: 'UCLA', domains: ['ucla.edu', 'mednet.ucla.edu', 'g.ucla.edu'] },
        { key: 'OXF', name: 'University of Oxford', domains: ['ox.ac.uk'] },
        { key: 'NOLMS', name: 'College Without Canvas', domains: ['nolms.edu'] },
      ],
    });
    expect(res.body).not.toContain(emu.url);
  });

  it('signs up a student of the fourth university at its own college', async () => {
    await signUpVerified(t.app, mail, 'ada@ox.ac.uk', 'secret1');
    const me = await session(await logIn(t.app, 'ada@ox.ac.uk', 'secret1'));
    expect(me.profile).toMatchObject({ email: 'ada@ox.ac.uk', college: 'University of Oxford' });
    expect((await post(t.app, '/api/auth/signup', { email: 'bo@ucla.edu', password: 'secret1' })).statusCode).toBe(201);
  });

  it.each([
    ['closed to sign-ups ("signUp": false)', 'new@andrew.cmu.edu'],
    ['removed from the file', 'new@wisc.edu'],
    ['no university', 'new@gmail.com'],
  ])('refuses a sign-up of a university %s with the invalid-domain text, keeping no account', async (_, email) => {
    const res = await post(t.app, '/api/auth/signup', { email, password: 'secret1' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'invalid_domain',
      message: MSG.signup.invalidDomain,
      field: 'email',
    });
    expect(await userRow(email)).toBeUndefined();
  });

  it('still logs in the students of a closed or a removed university, at the college they joined', async () => {
    const cmu = await session(await logIn(t.app, 'old@andrew.cmu.edu', 'password123'));
    expect(cmu.profile).toMatchObject({ college: 'Carnegie Mellon' });
    const wisc = await session(await logIn(t.app, 'old@wisc.edu', 'password123'));
    expect(wisc.profile).toMatchObject({ college: 'University of Wisconsin-Madison' });
  });

  it('refuses the log-in of a removed university account that never got a profile (no college to give it)', async () => {
    const res = await post(t.app, '/api/auth/login', { email: 'never@wisc.edu', password: 'password123' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'invalid_domain', message: MSG.signup.invalidDomain });
    expect(sessionCookie(res)).toBeUndefined();
  });

  /** Start at our app, sign in at the provider as `login`, come back to our callback: where it sends the browser. */
  async function socialSignIn(login: string) {
    const start = await t.app.inject({ url: '/api/auth/oidc/start' });
    const stateCookie = start.cookies.find((c) => c.name === 'sb_oidc')!;
    const callback = await provider.authorize(start.headers.location as string, login);
    const res = await t.app.inject({
      url: callback.pathname + callback.search,
      headers: { cookie: `sb_oidc=${stateCookie.value}` },
    });
    return { location: res.headers.location, cookie: sessionCookie(res) };
  }

  it('social sign-in: a new student of the fourth university gets an account at its college', async () => {
    const { location, cookie } = await socialSignIn('newOxford');
    expect(location).toBe('/');
    expect((await session(cookie!)).profile).toMatchObject({ email: 'ola@ox.ac.uk', college: 'University of Oxford' });
  });

  it.each([
    ['newCmu', 'new@andrew.cmu.edu'],
    ['newWisc', 'new@wisc.edu'],
    ['profileless', 'never@wisc.edu'],
  ])('social sign-in: refuses %s (invalid_domain) and links or makes nothing', async (login, email) => {
    const before = await userRow(email);
    const { location, cookie } = await socialSignIn(login);
    expect(location).toBe('/login?error=invalid_domain');
    expect(cookie).toBeUndefined();
    expect(await userRow(email)).toEqual(before);
    if (before) {
      expect(await t.app.ctx.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, before.id))).toEqual(
        [],
      );
    }
  });

  it.each([
    ['oldCmu', 'Carnegie Mellon'],
    ['oldWisc', 'University of Wisconsin-Madison'],
  ])('social sign-in: the existing student %s still gets in', async (login, college) => {
    const { location, cookie } = await socialSignIn(login);
    expect(location).toBe('/');
    expect((await session(cookie!)).profile).toMatchObject({ college });
  });

  it("connects Canvas at the address the file names, and says 'not available' for a university without one", async () => {
    const oxford = await logIn(t.app, 'ada@ox.ac.uk', 'secret1');
    const status = await t.app.inject({ url: '/api/lms/status', headers: { cookie: oxford } });
    expect(status.json<LmsStatus>()).toMatchObject({ available: true, settings_url: `${emu.url}/profile/settings` });
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/lms/connect',
      headers: { cookie: oxford },
      payload: { access_token: DEMO_TOKEN },
    });
    expect(connect.statusCode).toBe(200);
    expect(connect.json<ConnectResponse>().imported.length).toBeGreaterThan(0);
    expect(connect.json<ConnectResponse>().status).toMatchObject({ connected: true });

    await signUpVerified(t.app, mail, 'cy@nolms.edu', 'secret1');
    const noLms = await logIn(t.app, 'cy@nolms.edu', 'secret1');
    const none = await t.app.inject({ url: '/api/lms/status', headers: { cookie: noLms } });
    expect(none.json<LmsStatus>()).toMatchObject({ available: false, connected: false, settings_url: null });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/lms/connect',
      headers: { cookie: noLms },
      payload: { access_token: DEMO_TOKEN },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ message: MSG.lms.urlUnavailable });
  });
});
