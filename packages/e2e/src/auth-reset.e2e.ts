import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { quickRedirected, quickRedirects, releaseRedirects } from './auth-helpers.ts';
import { startMailbox, type Mailbox } from './auth-mailbox.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/** Starting the server (and seeding) can take long on a busy machine. */
const STARTUP_MS = 180_000;

const EMAIL = 'reset.me@wisc.edu';

describe('password reset in Chromium (mail over real SMTP)', () => {
  let mailbox: Mailbox;
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    mailbox = await startMailbox();
    [server, browser] = await Promise.all([
      startServer({ SMTP_URL: mailbox.smtpUrl }, [{ email: EMAIL, name: 'Reese' }]),
      launchBrowser(),
    ]);
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.close();
  });

  it('acceptance 4: forgot password → neutral text → mail → mismatch, short, success → /login → new password; the link works once; other sessions end', async () => {
    // Another device is signed in before the reset.
    const otherDevice = await newPage(browser);
    await logIn(otherDevice, server.url, EMAIL);
    const sessionOf = async (p: typeof otherDevice) =>
      (await (await p.request.get(`${server.url}/api/auth/session`)).json()).user;
    expect(await sessionOf(otherDevice)).toMatchObject({ email: EMAIL });

    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: MSG.login.forgotPassword }).click();
    await page.getByText(MSG.reset.needEmail).waitFor();

    // Unknown e-mail and known e-mail get the same neutral answer.
    await page.getByLabel('Email', { exact: true }).fill('nobody.here@wisc.edu');
    await page.getByRole('button', { name: MSG.login.forgotPassword }).click();
    await page.getByText(MSG.reset.sent).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(EMAIL);
    await page.getByRole('button', { name: MSG.login.forgotPassword }).click();
    await page.getByText(MSG.reset.sent).waitFor();
    await expectAccessible(page);

    const link = await mailbox.waitForLink(EMAIL, 'resetPassword');
    expect(link).toMatch(new RegExp(`^${server.url}/verify\\?mode=resetPassword&oobCode=[\\w-]+$`));
    expect(mailbox.mails.filter((m) => m.to.includes('nobody.here@wisc.edu'))).toHaveLength(0);

    // The success text's 2 s redirect waits for the accessibility check, then runs at once (quickRedirects).
    await quickRedirects(page, MSG.reset.success, { hold: true });
    await page.goto(link);
    await page.waitForURL(/\/reset-password\?oobCode=/);
    await page.getByText(EMAIL).waitFor();
    await expectAccessible(page);
    const newPassword = page.getByLabel(MSG.reset.newPassword, { exact: true });
    const confirm = page.getByLabel(MSG.reset.confirmPassword, { exact: true });
    const submit = page.getByRole('button', { name: MSG.reset.submit });

    await newPassword.fill('brand-new-1');
    await confirm.fill('brand-new-2');
    await submit.click();
    await page.getByText(MSG.reset.mismatch).waitFor();

    await newPassword.fill('short');
    await confirm.fill('short');
    await submit.click();
    await page.getByText(MSG.reset.tooShort).waitFor();
    await expectAccessible(page);

    // The server's own refusal of a weak password (the form's check passed, the request says otherwise) reads
    // `{code}: {message}` (requirements §8).
    const confirmUrl = `${server.url}/api/auth/password-reset/confirm`;
    await page.route(confirmUrl, (route) =>
      route.continue({ postData: JSON.stringify({ ...route.request().postDataJSON(), password: '12345' }) }),
    );
    await newPassword.fill('brand-new-1');
    await confirm.fill('brand-new-1');
    await submit.click();
    await page.getByText(MSG.reset.refusals.weakPassword, { exact: true }).waitFor();
    await page.unroute(confirmUrl);

    await newPassword.fill('brand-new-1');
    await confirm.fill('brand-new-1');
    await submit.click();
    await page.getByText(MSG.reset.success).waitFor();
    await expectAccessible(page);
    expect(new URL(page.url()).pathname).toBe('/reset-password');
    await releaseRedirects(page);
    await page.waitForURL(/\/login$/);
    // §9: the success text stays 2 s (set while it was on screen), then /login.
    expect(await quickRedirected(page)).toEqual([{ ms: 2000, shown: MSG.reset.success, firedOn: '/reset-password' }]);

    // The other device was signed out by the reset.
    expect(await sessionOf(otherDevice)).toBeNull();
    await otherDevice.close();

    // The old password no longer works; the new one does.
    await page.getByLabel('Email', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('password123');
    await page.getByRole('button', { name: MSG.login.submit }).click();
    await page.getByText(MSG.login.wrongPassword).waitFor();
    await logIn(page, server.url, EMAIL, 'brand-new-1');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.close();

    // The same link a second time: refused.
    const again = await newPage(browser);
    await again.goto(link);
    await again.waitForURL(/\/reset-password\?oobCode=/);
    await again.getByText(MSG.reset.refusals.invalidLink, { exact: true }).waitFor();
    await expectAccessible(again);
    // No code at all in the address.
    await again.goto(`${server.url}/reset-password`);
    await again.getByText(MSG.reset.invalidCode, { exact: true }).waitFor();
    await again.close();
  });
});
