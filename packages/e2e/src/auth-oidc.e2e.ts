import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startOidcProvider, type OidcProvider } from './auth-oidc-provider.ts';
import { startServer, type RunningServer } from './server.ts';

/** Starting the server (and seeding) can take long on a busy machine. */
const STARTUP_MS = 180_000;

const PROVIDER_NAME = 'Campus ID';
const ACCOUNTS = {
  'sam-ucla': { email: 'sam.social@g.ucla.edu', emailVerified: true },
  'sam-gmail': { email: 'sam.social@gmail.com', emailVerified: true },
  'sam-unverified': { email: 'sam.unverified@wisc.edu', emailVerified: false },
};

describe('social sign-in against a real OpenID Connect provider in Chromium', () => {
  let provider: OidcProvider;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    provider = await startOidcProvider(ACCOUNTS);
    [server, browser] = await Promise.all([
      startServer({
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_NAME: PROVIDER_NAME,
      }),
      launchBrowser(),
    ]);
    provider.setRedirectUri(`${server.url}/api/auth/oidc/callback`);
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await provider?.close();
  });

  /** Clicks the button on /login and signs in at the provider's own login form as `login`. */
  async function signInWithProvider(page: Page, login: string) {
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: MSG.login.socialButton(PROVIDER_NAME) }).click();
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('any password');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => url.origin === server.url && !url.pathname.startsWith('/api/'));
  }

  /** Whether an account exists for the e-mail, asked the way a visitor can: the log-in's 'no user found' text. */
  async function accountExists(page: Page, email: string): Promise<boolean> {
    const res = await page.request.post(`${server.url}/api/auth/login`, {
      data: { email, password: 'not-the-password' },
      headers: { origin: server.url },
    });
    return (await res.json()).error?.message !== MSG.login.userNotFound;
  }

  it('shows the button on /login and /signup with the provider name: Sign in on one, Sign up on the other', async () => {
    const page = await newPage(browser);
    for (const [path, text, other] of [
      ['/login', MSG.login.socialButton(PROVIDER_NAME), MSG.signup.socialButton(PROVIDER_NAME)],
      ['/signup', MSG.signup.socialButton(PROVIDER_NAME), MSG.login.socialButton(PROVIDER_NAME)],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      const button = page.getByRole('link', { name: text, exact: true });
      await button.waitFor();
      expect(await button.getAttribute('href')).toBe('/api/auth/oidc/start');
      expect(await page.getByRole('link', { name: other, exact: true }).count()).toBe(0);
      await expectAccessible(page);
    }
    await page.close();
  });

  it('acceptance 5: a university account gets in and gets a profile', async () => {
    const page = await newPage(browser);
    await signInWithProvider(page, 'sam-ucla');
    await page.waitForURL(/\/profile$/);
    const session = await (await page.request.get(`${server.url}/api/auth/session`)).json();
    expect(session.user).toMatchObject({ email: 'sam.social@g.ucla.edu', emailVerified: true });
    expect(session.profile).toMatchObject({ college: 'UCLA', name: '', hasCustomProfilePicture: false });
    const avatar = await page.request.get(`${server.url}${session.profile.profilePicture}`);
    expect(avatar.headers()['content-type']).toContain('image/svg+xml');
    await page.close();
  });

  it.each([
    ['sam-gmail', 'sam.social@gmail.com', MSG.login.socialInvalidDomain],
    ['sam-unverified', 'sam.unverified@wisc.edu', MSG.login.socialNotVerified],
  ])('acceptance 5: %s is refused with the exact text and leaves no account', async (login, email, text) => {
    const page = await newPage(browser);
    await signInWithProvider(page, login);
    await page.waitForURL(/\/login\?error=/);
    await page.getByText(text, { exact: true }).waitFor();
    await expectAccessible(page);
    expect((await (await page.request.get(`${server.url}/api/auth/session`)).json()).user).toBeNull();
    expect(await accountExists(page, email)).toBe(false);
    expect(await accountExists(page, 'sam.social@g.ucla.edu')).toBe(true);
    await page.close();
  });
});

describe('without OIDC configuration', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('hides the social sign-in button', async () => {
    const page = await newPage(browser);
    const providers = page.waitForResponse((r) => r.url().endsWith('/api/auth/providers'));
    await page.goto(`${server.url}/login`);
    expect(await (await providers).json()).toEqual({ oidc: null });
    await page.getByRole('button', { name: MSG.login.submit }).waitFor();
    expect(await page.getByRole('link', { name: /^Sign in with/ }).count()).toBe(0);
    await page.close();
  });
});
