import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { quickRedirected, quickRedirects, releaseRedirects } from './auth-helpers.ts';
import { startMailbox, type Mailbox } from './auth-mailbox.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/** Starting the server (and seeding) can take long on a busy machine. */
const STARTUP_MS = 180_000;

describe('sign-up, verification and log-in in Chromium (mail over real SMTP)', () => {
  let mailbox: Mailbox;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    mailbox = await startMailbox();
    [server, browser] = await Promise.all([startServer({ SMTP_URL: mailbox.smtpUrl }), launchBrowser()]);
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  const fresh = () => `e2e${randomBytes(4).toString('hex')}`;

  async function signUp(page: Page, email: string, password: string) {
    await page.goto(`${server.url}/signup`);
    await page.getByLabel('University Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: MSG.signup.submit }).click();
  }

  it('acceptance 1: sign up → mail → link → verified on /login → log in → /profile without the shell', async () => {
    const email = `${fresh()}@g.ucla.edu`;
    const page = await newPage(browser);
    await quickRedirects(page, MSG.verify.success);
    await page.goto(`${server.url}/signup`);
    await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
    await expectAccessible(page);
    await signUp(page, email, 'secret123');
    await page.waitForURL(/\/login$/);
    await page.getByText(MSG.login.verificationSent).waitFor();
    await expectAccessible(page);
    // Signed out after sign-up.
    expect(await (await page.request.get(`${server.url}/api/auth/session`)).json()).toEqual({
      user: null,
      profile: null,
    });

    const link = await mailbox.waitForLink(email, 'verifyEmail');
    expect(link).toMatch(new RegExp(`^${server.url}/verify\\?mode=verifyEmail&oobCode=[\\w-]+$`));
    // Hold the verification call to check the 'verifying' state, then let it through.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/verify-email', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(link);
    await page.waitForURL(/\/verify-email\?oobCode=/);
    await page.getByText(MSG.verify.verifying).waitFor();
    await expectAccessible(page);
    release();
    // The success text's 2 s timer runs at once here: the text was on screen when it was set (quickRedirects),
    // so the runner does not wait for the text, which is gone as soon as it comes.
    await page.waitForURL(/\/login$/);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    // §9: the success text stays 2 s, then /login.
    expect(await quickRedirected(page)).toEqual([{ ms: 2000, shown: MSG.verify.success, firedOn: '/verify-email' }]);
    await page.getByText(MSG.login.verified).waitFor();

    await logIn(page, server.url, email, 'secret123');
    await page.waitForURL(/\/profile$/);
    // The profile screen itself belongs to the profile feature; here only that the shell is hidden.
    await page.locator('main').first().waitFor();
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).count()).toBe(0);
    await page.close();
  });

  it('acceptance 2: invalid domain, weak password and a second sign-up with the same e-mail show the spec texts', async () => {
    const page = await newPage(browser);
    await signUp(page, 'x@gmail.com', 'secret123');
    await page.getByText(MSG.signup.invalidDomain).waitFor();
    await expectAccessible(page);

    await signUp(page, `${fresh()}@wisc.edu`, '12345');
    await page.getByText(MSG.signup.weakPassword).waitFor();

    const email = `${fresh()}@andrew.cmu.edu`;
    await signUp(page, email, 'secret123');
    await page.waitForURL(/\/login$/);
    await signUp(page, email.toUpperCase(), 'secret456');
    await page.getByText(MSG.signup.emailInUse).waitFor();
    expect(page.url()).toMatch(/\/signup$/);
    await page.close();
  });

  it('acceptance 3: unverified log-in → text and Resend; the resent link works, the older one is refused', async () => {
    const email = `${fresh()}@wisc.edu`;
    const page = await newPage(browser);
    await quickRedirects(page, [MSG.verify.invalidOrExpired, MSG.verify.success]);
    await signUp(page, email, 'secret123');
    await page.waitForURL(/\/login$/);
    const firstLink = await mailbox.waitForLink(email, 'verifyEmail', 1);

    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('secret123');
    await page.getByRole('button', { name: MSG.login.submit }).click();
    await page.getByText(MSG.login.unverified).waitFor();
    const resend = page.getByRole('button', { name: MSG.login.resendButton });
    await resend.waitFor();
    await expectAccessible(page);
    // No session was made, and the password is kept nowhere in the page's storage.
    expect((await (await page.request.get(`${server.url}/api/auth/session`)).json()).user).toBeNull();
    const stored = await page.evaluate(
      () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }),
    );
    expect(stored).not.toContain('secret123');

    await resend.click();
    await page.getByText(MSG.login.verificationSent).waitFor();
    const secondLink = await mailbox.waitForLink(email, 'verifyEmail', 2);
    expect(secondLink).not.toBe(firstLink);

    // Decision: a resend replaces the older link, which is refused with the §8 text, then /login after 3 s.
    await page.goto(firstLink);
    await page.waitForURL(/\/login$/);
    expect(await quickRedirected(page)).toEqual([
      { ms: 3000, shown: MSG.verify.invalidOrExpired, firedOn: '/verify-email' },
    ]);

    await page.goto(secondLink);
    await page.waitForURL(/\/login$/);
    expect(await quickRedirected(page)).toEqual([{ ms: 2000, shown: MSG.verify.success, firedOn: '/verify-email' }]);
    await page.getByText(MSG.login.verified).waitFor();
    await logIn(page, server.url, email, 'secret123');
    await page.waitForURL(/\/profile$/);
    await page.close();
  });

  it('log-in texts: unknown user and wrong password', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill('nobody@wisc.edu');
    await page.getByLabel('Password', { exact: true }).fill('whatever1');
    await page.getByRole('button', { name: MSG.login.submit }).click();
    await page.getByText(MSG.login.userNotFound).waitFor();

    const email = `${fresh()}@wisc.edu`;
    await signUp(page, email, 'secret123');
    await page.waitForURL(/\/login$/);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not-it-1');
    await page.getByRole('button', { name: MSG.login.submit }).click();
    await page.getByText(MSG.login.wrongPassword).waitFor();
    await page.close();
  });

  it('the /verify dispatcher refuses a link without a code or with another mode, then goes to /login after 3 s', async () => {
    const page = await newPage(browser);
    await quickRedirects(page, MSG.verify.invalidLink, { hold: true });
    await page.goto(`${server.url}/verify?mode=resetPassword`);
    await page.getByText(MSG.verify.invalidLink).waitFor();
    await expectAccessible(page);
    expect(new URL(page.url()).pathname).toBe('/verify');
    await releaseRedirects(page);
    await page.waitForURL(/\/login$/);
    expect(await quickRedirected(page)).toEqual([{ ms: 3000, shown: MSG.verify.invalidLink, firedOn: '/verify' }]);
    await page.close();

    for (const query of ['?mode=verifyEmail', '?mode=somethingElse&oobCode=abc', '']) {
      const other = await newPage(browser);
      await quickRedirects(other, MSG.verify.invalidLink);
      await other.goto(`${server.url}/verify${query}`);
      await other.waitForURL(/\/login$/);
      expect(await quickRedirected(other)).toEqual([{ ms: 3000, shown: MSG.verify.invalidLink, firedOn: '/verify' }]);
      await other.close();
    }
    const last = await newPage(browser);
    await last.goto(`${server.url}/verify?mode=verifyEmail&oobCode=made-up`);
    await last.waitForURL(/\/verify-email\?oobCode=made-up$/);
    await last.getByText(MSG.verify.invalidOrExpired).waitFor();
    await last.close();
  });

  it('Terms and Privacy Policy links on Sign Up open real pages', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/signup`);
    await page.getByRole('link', { name: 'Terms' }).click();
    await page.waitForURL(/\/terms$/);
    await page.getByRole('heading', { name: 'Terms of Use' }).waitFor();
    await expectAccessible(page);
    await page.goto(`${server.url}/signup`);
    await page.getByRole('link', { name: 'Privacy Policy' }).click();
    await page.waitForURL(/\/privacy$/);
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    for (const topic of [
      'Your profile',
      'Friends and messages',
      'Files and documents',
      'Canvas',
      'Deleting your account',
    ]) {
      expect(await page.getByText(topic, { exact: true }).count()).toBeGreaterThan(0);
    }
    expect(await page.getByText('encrypted', { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.close();
  });
});
