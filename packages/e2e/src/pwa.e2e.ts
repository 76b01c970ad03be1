import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import type { PushPayload } from '@studybuddy/shared/push-api';
import { logIn } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.pwa@g.ucla.edu';
const BEN = 'ben.pwa@g.ucla.edu';
/** Set E2E_SCREENSHOTS to a folder to keep pictures of the offline page and the Profile switches. */
const SHOTS = process.env.E2E_SCREENSHOTS;

async function shoot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe('installable app and push notices in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let cdp: CDPSession;
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        { email: ADA, name: 'Ada Lovelace', friends: [BEN] },
        { email: BEN, name: 'Ben Carter' },
      ]),
      launchBrowser([], { notifications: true }),
    ]);
    page = await newPage(browser, { serviceWorkers: 'allow', viewport: { width: 1280, height: 800 } });
    await page.context().grantPermissions(['notifications'], { origin: server.url });
    cdp = await page.context().newCDPSession(page);
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const chatWithAda = () => `/friends?friend=${server.userIds[ADA]}`;

  it('serves a manifest Chromium parses without errors, with the icons browsers ask for, and finds the app installable', async () => {
    await logIn(page, server.url, BEN);
    const res = await page.request.get(`${server.url}/manifest.webmanifest`);
    expect(res.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = (await res.json()) as {
      name: string;
      short_name: string;
      start_url: string;
      scope: string;
      display: string;
      theme_color: string;
      icons: { src: string; sizes: string; type: string; purpose: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'StudyBuddy',
      short_name: 'StudyBuddy',
      start_url: '/',
      scope: '/',
      display: 'standalone',
    });
    // The theme colour is the Mantine theme's primary colour, as the page's own meta says.
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe(manifest.theme_color);
    const sizes = (purpose: string) =>
      manifest.icons
        .filter((i) => i.purpose === purpose)
        .map((i) => i.sizes)
        .sort();
    expect(sizes('any')).toEqual(['192x192', '512x512']);
    expect(sizes('maskable')).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons) {
      const file = await page.request.get(`${server.url}${icon.src}`);
      expect(file.headers()['content-type']).toBe('image/png');
      expect(pngSize(await file.body())).toBe(icon.sizes);
    }

    const parsed = await cdp.send('Page.getAppManifest');
    expect(parsed.errors).toEqual([]);
    expect(parsed.url).toBe(`${server.url}/manifest.webmanifest`);
    // Installable once the service worker controls the page (it has a fetch handler).
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    const installable = await cdp.send('Page.getInstallabilityErrors');
    // Playwright's contexts are incognito profiles, where Chromium installs nothing; that is the only objection.
    expect(installable.installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
  });

  it('installs the service worker at / from a file the server never lets caches keep', async () => {
    const state = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.ready;
      return { scope: reg.scope, script: reg.active?.scriptURL, active: reg.active?.state };
    });
    expect(state).toEqual({ scope: `${server.url}/`, script: `${server.url}/sw.js`, active: 'activated' });
    const sw = await page.request.get(`${server.url}/sw.js`);
    expect(sw.headers()['cache-control']).toBe('no-cache');
    expect(sw.headers()['content-security-policy']).toContain("worker-src 'self'");
    const script = await page.locator('script[type="module"][src^="/assets/"]').getAttribute('src');
    const asset = await page.request.get(`${server.url}${script}`);
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(registrations.some((r) => r.scopeURL === `${server.url}/` && !r.isDeleted)).toBe(true);
  });

  it('offline, the app shell still loads and shows the offline page with the messages waiting to be sent', async () => {
    await page.goto(`${server.url}${chatWithAda()}`);
    const composer = page.getByRole('textbox', { name: MSG.chat.messageLabel });
    await composer.waitFor();
    await page.context().setOffline(true);
    await composer.fill('Written in the tunnel');
    await page.keyboard.press('Enter');
    await page.getByText(MSG.chat.offline).waitFor();

    await page.reload();
    await page.getByRole('heading', { name: MSG.offline.title }).waitFor({ timeout: 20_000 });
    await page.getByText(MSG.offline.outboxCount(1)).waitFor();
    await page.getByRole('listitem').filter({ hasText: 'Written in the tunnel' }).waitFor();
    await expectAccessible(page);
    await shoot(page, 'offline-page');

    // Back online: the app comes back by itself and the message goes out.
    await page.context().setOffline(false);
    await composer.waitFor({ timeout: 20_000 });
    await page
      .getByRole('log', { name: MSG.chat.historyLabel })
      .getByTestId('message')
      .filter({ hasText: 'Written in the tunnel' })
      .and(page.locator('[data-state="sent"]'))
      .waitFor({ timeout: 20_000 });
  });

  it('shows a push delivered to the service worker; clicking it opens the chat', async () => {
    await page.goto(`${server.url}/profile`);
    await page.getByRole('heading', { name: MSG.push.title }).waitFor();
    const registration = registrations.filter((r) => r.scopeURL === `${server.url}/` && !r.isDeleted).at(-1)!;
    const notice: PushPayload = {
      title: 'Ada Lovelace',
      body: 'Library at 5?',
      url: chatWithAda(),
      tag: 'chat:e2e',
    };
    const shownNotice = () =>
      page.evaluate(async () => {
        const reg = await navigator.serviceWorker.ready;
        const [n] = await reg.getNotifications({ tag: 'chat:e2e' });
        return n ? { title: n.title, body: n.body, data: n.data as unknown, icon: n.icon } : null;
      });
    // The worker shows it in its own time (a check that returns a promise cannot be waited on with waitForFunction:
    // the promise itself is truthy, and a busy machine read null from it). DevTools' delivery can be dropped while
    // the worker starts or stops (the offline test before reloads the page), so it is delivered again every 5 s,
    // as a push service retries; the tag makes a second delivery replace the first notice, not add one.
    for (let tries = 0; tries < 6 && !(await shownNotice()); tries++) {
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.url,
        registrationId: registration.registrationId,
        data: JSON.stringify(notice),
      });
      for (const until = Date.now() + 5_000; Date.now() < until && !(await shownNotice()); )
        await page.waitForTimeout(200);
    }
    expect(await shownNotice()).toEqual({
      title: 'Ada Lovelace',
      body: 'Library at 5?',
      data: { url: chatWithAda() },
      icon: `${server.url}/icons/icon-192.png`,
    });

    // Headless Chromium has no notification to click: the service worker gets the click event its click makes.
    const [worker] = page.context().serviceWorkers();
    await worker!.evaluate(async () => {
      // The service worker's globals (this package's types know the window's only).
      const scope = self as unknown as {
        registration: { getNotifications(filter: { tag: string }): Promise<unknown[]> };
        dispatchEvent(event: Event): boolean;
      };
      const NotificationEvent = (
        globalThis as unknown as { NotificationEvent: new (type: string, init: object) => Event }
      ).NotificationEvent;
      const [notification] = await scope.registration.getNotifications({ tag: 'chat:e2e' });
      scope.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    });
    await page.waitForURL((url) => url.pathname + url.search === chatWithAda());
    await page.getByRole('heading', { level: 2, name: 'Ada Lovelace' }).waitFor();
    const left = await page.evaluate(
      async () => (await (await navigator.serviceWorker.ready).getNotifications()).length,
    );
    expect(left).toBe(0);
  });

  it('keeps the push switches on the Profile page next to the e-mail switch', async () => {
    await page.goto(`${server.url}/profile`);
    const messages = page.getByRole('switch', { name: MSG.push.messages });
    await messages.waitFor();
    await expect.poll(() => messages.isEnabled()).toBe(true);
    expect(await messages.isChecked()).toBe(true);
    expect(await page.getByRole('switch', { name: MSG.profile.emailNotifications }).count()).toBe(1);
    expect(await page.getByRole('switch', { name: MSG.push.thisDevice }).count()).toBe(1);
    await messages.click();
    await expect.poll(() => messages.isChecked()).toBe(false);
    const saved = await page.evaluate(async () => (await fetch('/api/push/settings')).json());
    expect(saved).toMatchObject({ messages: false, friendRequests: true });
    await messages.click();
    await expect.poll(() => messages.isChecked()).toBe(true);
    await expectAccessible(page);
    await shoot(page, 'profile-push');
  });

  it('tells the student once that a new version runs', async () => {
    await page.evaluate(() => localStorage.setItem('studybuddy.appVersion', 'an-older-build'));
    await page.reload();
    const toast = page.getByText(`${MSG.update.title}. ${MSG.update.body}`);
    await toast.waitFor();
    // The next load: once the app has read the version it ran last (an init script notes the read) and the page
    // has painted twice since, a notice it was going to show would be there.
    await page.addInitScript(() => {
      const getItem = Storage.prototype.getItem;
      Storage.prototype.getItem = function (this: Storage, key: string) {
        if (key === 'studybuddy.appVersion') document.documentElement.dataset.versionRead = 'true';
        return getItem.call(this, key);
      };
    });
    await page.reload();
    await page.getByRole('heading', { name: MSG.profile.title }).waitFor();
    await page.waitForFunction(() => document.documentElement.dataset.versionRead === 'true');
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await toast.count()).toBe(0);
  });
});
