import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { APP_VERSION } from '@studybuddy/shared/version';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.about@g.ucla.edu';

/**
 * Issue 26 point 3: the release a student runs, in the account menu (About StudyBuddy), the same the server reports in
 * /api/health. Set ABOUT_SCREENSHOTS to a folder to keep pictures of the dialog at 1280 and 375 pixels wide.
 */
describe('About StudyBuddy, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({}, [{ email: ADA, name: 'Ada Lovelace' }]), launchBrowser()]);
    page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, ADA);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const dialog = () => page.getByRole('dialog', { name: MSG.about.title });

  async function openAbout() {
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: MSG.about.menuItem }).click();
    await dialog().waitFor();
  }

  it('shows the version the server runs, and closes', async () => {
    const health = await page.request.get(`${server.url}/api/health`);
    expect(((await health.json()) as { version: string }).version).toBe(APP_VERSION);

    await openAbout();
    await expect(dialog().getByTestId('app-version').textContent()).resolves.toBe(MSG.about.version(APP_VERSION));
    await expectAccessible(page);
    await screenshots('about-dialog');
    await page.setViewportSize({ width: 1280, height: 900 });
    await dialog().getByRole('button', { name: MSG.about.close }).last().click();
    await dialog().waitFor({ state: 'detached' });
  });

  it('is in the account menu on a phone too', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await openAbout();
    await expect(dialog().getByTestId('app-version').textContent()).resolves.toBe(MSG.about.version(APP_VERSION));
    await expectAccessible(page);
  });

  async function screenshots(name: string) {
    const dir = process.env.ABOUT_SCREENSHOTS;
    if (!dir) return;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 800 });
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`) });
    }
  }
});
