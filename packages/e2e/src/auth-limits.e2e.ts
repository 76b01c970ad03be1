import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

/** Starting the server (and seeding) can take long on a busy machine. */
const STARTUP_MS = 180_000;

const EMAIL = 'limited@andrew.cmu.edu';
const WINDOW_S = 30;

describe('abuse limits in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      // A 30 s window instead of a minute keeps the journey short; the limits are the same.
      startServer({ RATE_LIMIT_WINDOW: String(WINDOW_S) }, [{ email: EMAIL }]),
      launchBrowser(),
    ]);
  }, STARTUP_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('acceptance 7: the 11th failed log-in for one e-mail within the window gets 429; the right password after the window works', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email', { exact: true }).fill(EMAIL);
    await page.getByLabel('Password', { exact: true }).fill('wrong-password');
    const firstAttempt = Date.now();
    await page.getByRole('button', { name: MSG.login.submit }).click();
    await page.getByText(MSG.login.wrongPassword).waitFor();

    // Failures 2 to 10 from the same browser, at once.
    const statuses = await Promise.all(
      Array.from({ length: 9 }, () =>
        page.request
          .post(`${server.url}/api/auth/login`, {
            data: { email: EMAIL, password: 'wrong-password' },
            headers: { origin: server.url },
          })
          .then((r) => r.status()),
      ),
    );
    expect(statuses).toEqual(Array(9).fill(401));

    const eleventh = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await page.getByRole('button', { name: MSG.login.submit }).click();
    expect((await eleventh).status()).toBe(429);
    await page.getByText(MSG.login.tooMany).waitFor();

    // The right password inside the window is refused too; after it, it works.
    await page.getByLabel('Password', { exact: true }).fill('password123');
    const locked = page.waitForResponse((r) => r.url().endsWith('/api/auth/login'));
    await page.getByRole('button', { name: MSG.login.submit }).click();
    expect((await locked).status()).toBe(429);
    expect(Date.now() - firstAttempt).toBeLessThan(WINDOW_S * 1000);
    await page.getByText(MSG.login.tooMany).waitFor();
    await expectAccessible(page);

    await page.waitForTimeout(Math.max(0, firstAttempt + WINDOW_S * 1000 + 300 - Date.now()));
    await logIn(page, server.url, EMAIL);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.close();
  });
});
