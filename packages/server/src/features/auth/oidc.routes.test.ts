import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { oauthIdentities, profiles, users } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { post, sessionCookie } from './auth-test-helpers.ts';
import { startOidcProvider, type TestOidcProvider } from './oidc-test-provider.ts';

const PUBLIC_URL = 'http://localhost:3000';
const ACCOUNTS = {
  uni: { email: 'Sam@G.UCLA.edu', emailVerified: true },
  gmail: { email: 'sam@gmail.com', emailVerified: true },
  unverified: { email: 'unv@wisc.edu', emailVerified: false },
  taken: { email: 'taken@wisc.edu', emailVerified: true },
};

describe('social sign-in through a real OpenID Connect provider', () => {
  let provider: TestOidcProvider;
  let t: TestApp;
  beforeAll(async () => {
    provider = await startOidcProvider({ redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback`, accounts: ACCOUNTS });
    t = await createTestApp({
      PUBLIC_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
      OIDC_NAME: 'Campus ID',
    });
  });
  afterAll(async () => {
    await t?.close();
    await provider?.close();
  });

  /** Start at our app, sign in at the provider as `login`, come back to our callback. */
  async function signIn(login: string, tamper?: (callback: URL) => void) {
    const start = await t.app.inject({ url: '/api/auth/oidc/start' });
    expect(start.statusCode).toBe(302);
    const stateCookie = start.cookies.find((c) => c.name === 'sb_oidc')!;
    const callback = await provider.authorize(start.headers.location as string, login);
    tamper?.(callback);
    const res = await t.app.inject({
      url: callback.pathname + callback.search,
      headers: { cookie: `sb_oidc=${stateCookie.value}` },
    });
    return { start, res };
  }
  const userCount = async () => (await t.app.ctx.db.select().from(users)).length;

  it('offers the provider by its name', async () => {
    const res = await t.app.inject({ url: '/api/auth/providers' });
    expect(res.json()).toEqual({ oidc: { name: 'Campus ID' } });
  });

  it('sends the browser to the provider with PKCE (S256), state and nonce in a sealed httpOnly cookie', async () => {
    const start = await t.app.inject({ url: '/api/auth/oidc/start' });
    const url = new URL(start.headers.location as string);
    expect(url.origin).toBe(provider.issuer);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/oidc/callback`);
    const cookie = start.cookies.find((c) => c.name === 'sb_oidc')!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/oidc/callback' });
    expect(cookie.value).not.toContain(url.searchParams.get('state'));
  });

  it('a university account gets in, gets an account with a profile, and comes back to the same account', async () => {
    const { res } = await signIn('uni');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/');
    const cookie = sessionCookie(res)!;
    const session = (await t.app.inject({ url: '/api/auth/session', headers: { cookie } })).json();
    expect(session.user).toMatchObject({ email: 'sam@g.ucla.edu', emailVerified: true });
    expect(session.profile).toMatchObject({
      email: 'sam@g.ucla.edu',
      college: 'UCLA',
      name: '',
      hasCustomProfilePicture: false,
    });
    expect(session.profile.profilePicture).toMatch(/^\/api\/avatars\/[\w-]+\.svg$/);
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'sam@g.ucla.edu'));
    expect(user!.passwordHash).toBeNull();

    const count = await userCount();
    const again = await signIn('uni');
    expect(again.res.headers.location).toBe('/');
    expect(await userCount()).toBe(count);
    const ids = await t.app.ctx.db.select().from(oauthIdentities).where(eq(oauthIdentities.userId, user!.id));
    expect(ids).toEqual([expect.objectContaining({ provider: provider.issuer, subject: 'uni' })]);
  });

  it.each([
    ['gmail', 'invalid_domain', 'sam@gmail.com'],
    ['unverified', 'not_verified', 'unv@wisc.edu'],
  ])('refuses the %s account (/login?error=%s) and leaves no user row', async (login, error, email) => {
    const count = await userCount();
    const { res } = await signIn(login);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/login?error=${error}`);
    expect(sessionCookie(res)).toBeUndefined();
    expect(await userCount()).toBe(count);
    expect(await t.app.ctx.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
  });

  it('refuses an answer whose state does not match the cookie', async () => {
    const { res } = await signIn('uni', (callback) => callback.searchParams.set('state', 'forged-state'));
    expect(res.headers.location).toBe('/login?error=failed');
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('refuses a callback without its state cookie', async () => {
    const res = await t.app.inject({ url: '/api/auth/oidc/callback?code=abc&state=xyz' });
    expect(res.headers.location).toBe('/login?error=failed');
  });

  it('links an unverified password account of the same e-mail, verifies it and drops the unproven password', async () => {
    await post(t.app, '/api/auth/signup', { email: 'taken@wisc.edu', password: 'attacker1' });
    const { res } = await signIn('taken');
    expect(res.headers.location).toBe('/');
    const [user] = await t.app.ctx.db.select().from(users).where(eq(users.email, 'taken@wisc.edu'));
    expect(user).toMatchObject({ emailVerified: true, passwordHash: null });
    expect(await t.app.ctx.db.select().from(profiles).where(eq(profiles.userId, user!.id))).toHaveLength(1);
    const login = await post(t.app, '/api/auth/login', { email: 'taken@wisc.edu', password: 'attacker1' });
    expect(login.statusCode).toBe(401);
  });
});

describe('social sign-in with the e-mail in the ID token (as Google sends it)', () => {
  it('reads the e-mail from the ID token', async () => {
    const provider = await startOidcProvider({
      redirectUri: `${PUBLIC_URL}/api/auth/oidc/callback`,
      accounts: { a: { email: 'idtoken@andrew.cmu.edu', emailVerified: true } },
      emailInIdToken: true,
    });
    const t = await createTestApp({
      PUBLIC_URL,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: provider.clientId,
      OIDC_CLIENT_SECRET: provider.clientSecret,
    });
    try {
      expect((await t.app.inject({ url: '/api/auth/providers' })).json()).toEqual({ oidc: { name: 'Google' } });
      const start = await t.app.inject({ url: '/api/auth/oidc/start' });
      const callback = await provider.authorize(start.headers.location as string, 'a');
      const res = await t.app.inject({
        url: callback.pathname + callback.search,
        headers: { cookie: `sb_oidc=${start.cookies.find((c) => c.name === 'sb_oidc')!.value}` },
      });
      expect(res.headers.location).toBe('/');
      const session = await t.app.inject({ url: '/api/auth/session', headers: { cookie: sessionCookie(res)! } });
      expect(session.json().profile.college).toBe('Carnegie Mellon');
    } finally {
      await t.close();
      await provider.close();
    }
  });
});

describe('without OIDC configuration', () => {
  it('offers no social sign-in and its routes do not exist', async () => {
    const t = await createTestApp();
    try {
      expect((await t.app.inject({ url: '/api/auth/providers' })).json()).toEqual({ oidc: null });
      expect((await t.app.inject({ url: '/api/auth/oidc/start' })).statusCode).toBe(404);
      expect((await t.app.inject({ url: '/api/auth/oidc/callback?code=x' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
