import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const PAT = 'pat.account@g.ucla.edu';
const QUIN = 'quin.account@g.ucla.edu';
const RAY = 'ray.account@g.ucla.edu';

/**
 * Issue 24 point 5 in Chromium: changing the password ends another browser's session, "Sign out everywhere else"
 * ends the others, and "Download my data" saves a ZIP with the student's messages in it. Set ACCOUNT_SCREENSHOTS to
 * a folder to keep pictures of the new profile sections at 1280 and 375 pixels wide.
 */
describe('account controls in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMITS: 'false' }, [
        { email: PAT, name: 'Pat Account', friends: [QUIN] },
        { email: QUIN, name: 'Quin Friend' },
        { email: RAY, name: 'Ray Many' },
      ]),
      launchBrowser(),
    ]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const security = (page: Page) => page.getByRole('region', { name: MSG.account.security });
  const sessionsList = (page: Page) => page.getByRole('list', { name: MSG.account.sessions });
  const signedInAs = async (page: Page) =>
    ((await (await page.request.get(`${server.url}/api/auth/session`)).json()) as { user: { email: string } | null })
      .user;

  async function screenshots(page: Page, name: string) {
    const dir = process.env.ACCOUNT_SCREENSHOTS;
    if (!dir) return;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await security(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('changing the password ends the session of another browser; this one stays signed in', async () => {
    const other = await newPage(browser);
    await logIn(other, server.url, PAT);
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, PAT);
    await page.goto(`${server.url}/profile`);
    const section = security(page);
    await section.waitFor();
    await sessionsList(page).getByRole('listitem').nth(1).waitFor();
    await expectAccessible(page);

    // A wrong current password is refused with a text that says so.
    await section.getByLabel(MSG.account.currentPassword, { exact: true }).fill('not-my-password');
    await section.getByLabel(MSG.account.newPassword, { exact: true }).fill('pat-new-password');
    await section.getByLabel(MSG.account.confirmPassword, { exact: true }).fill('pat-new-password');
    await section.getByRole('button', { name: MSG.account.changePasswordSubmit }).click();
    await section.getByText(MSG.account.wrongCurrentPassword).waitFor();
    await expectAccessible(page);
    expect(await signedInAs(other)).toMatchObject({ email: PAT });

    await section.getByLabel(MSG.account.currentPassword, { exact: true }).fill('password123');
    await section.getByRole('button', { name: MSG.account.changePasswordSubmit }).click();
    await section.getByText(MSG.account.passwordChanged).waitFor();
    await screenshots(page, 'security');

    // The other browser is signed out: its next page is the log-in.
    expect(await signedInAs(other)).toBeNull();
    await other.goto(`${server.url}/friends`);
    await other.waitForURL(/\/login$/);
    // This one is still signed in, and lists only itself.
    expect(await signedInAs(page)).toMatchObject({ email: PAT });
    await page.reload();
    await sessionsList(page).getByRole('listitem').first().waitFor();
    expect(await sessionsList(page).getByRole('listitem').count()).toBe(1);
    await sessionsList(page).getByText(MSG.account.thisBrowser).waitFor();
    // The new password signs in elsewhere.
    await logIn(other, server.url, PAT, 'pat-new-password');
    expect(await signedInAs(other)).toMatchObject({ email: PAT });
    await other.close();
    await page.close();
  });

  it('"Sign out everywhere else" signs the other browsers out at once and keeps this one', async () => {
    const others = [await newPage(browser), await newPage(browser)];
    for (const p of others) await logIn(p, server.url, RAY);
    // One of them has the app open: it is sent to the log-in when its session ends (its socket closes at once).
    await others[0]!.goto(`${server.url}/friends`);
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, server.url, RAY);
    await page.goto(`${server.url}/profile`);
    await sessionsList(page).getByRole('listitem').nth(2).waitFor();
    await expectAccessible(page);
    await screenshots(page, 'sessions');

    await security(page).getByRole('button', { name: MSG.account.signOutOthers }).click();
    await security(page).getByText(MSG.account.signedOutOthers(2)).waitFor();
    await expect.poll(() => sessionsList(page).getByRole('listitem').count()).toBe(1);
    expect(await security(page).getByRole('button', { name: MSG.account.signOutOthers }).isDisabled()).toBe(true);
    for (const p of others) expect(await signedInAs(p)).toBeNull();
    await others[1]!.goto(`${server.url}/profile`);
    await others[1]!.waitForURL(/\/login$/);
    expect(await signedInAs(page)).toMatchObject({ email: RAY });
    await expectAccessible(page);
    for (const p of [...others, page]) await p.close();
  });

  it('"Download my data" saves a ZIP with the student\'s messages; the next one waits an hour', async () => {
    const page = await newPage(browser, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await logIn(page, server.url, QUIN);
    const chatId = chatIdFor(server.userIds[QUIN]!, server.userIds[PAT]!);
    const text = `quin-export-message-${randomUUID()}`;
    const sent = await page.evaluate(
      async ({ chatId, text, id }) =>
        (
          await fetch(`/api/chats/${chatId}/messages`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ id, type: 'text', content: text }),
          })
        ).status,
      { chatId, text, id: randomUUID() },
    );
    expect(sent).toBe(201);

    await page.goto(`${server.url}/profile`);
    const data = page.getByRole('region', { name: MSG.account.yourData });
    await data.waitFor();
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      data.getByRole('button', { name: MSG.account.exportButton }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^studybuddy-data-\d{4}-\d\d-\d\d\.zip$/);
    const zip = await JSZip.loadAsync(await readFile((await download.path())!));
    const messages = JSON.parse(await zip.file('messages.json')!.async('string')) as {
      conversation: { name: string };
      content: string;
    }[];
    expect(messages).toEqual([
      expect.objectContaining({ content: text, conversation: { kind: 'chat', name: 'Pat Account' } }),
    ]);
    await data.getByText(MSG.account.exportStarted).waitFor();
    if (process.env.ACCOUNT_SCREENSHOTS) {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        await data.screenshot({ path: path.join(process.env.ACCOUNT_SCREENSHOTS, `your-data-${width}.png`) });
      }
      await page.setViewportSize({ width: 1280, height: 900 });
    }

    // Once an hour: the second ask is refused with a text naming the limit.
    await data.getByRole('button', { name: MSG.account.exportButton }).click();
    await data.getByText(MSG.quota.exceeded(MSG.account.exportsPerHour, '1', MSG.quota.tryLater)).waitFor();
    await expectAccessible(page);
    await page.close();
  });
});
