import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { chatIdFor } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { sessionState, type SessionState } from './accounts.ts';
import { expectAccessible, launchBrowser, newPage, screenshotWidths } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { transitionsEnded } from './transitions.ts';

const ADA = 'ada.appearance@g.ucla.edu';
const BEN = 'ben.appearance@g.ucla.edu';
const HELLO = 'Shall we revise the lecture notes together?';
/** The browser's title bar: the brand colour in light, the page's body in dark (app/theme.ts). */
const THEME_COLOR = { light: '#3b5bdb', dark: '#242424' } as const;
/** Set APPEARANCE_SCREENSHOTS to a folder for pictures of the main pages in dark at 1280 and 375 pixels wide. */
const SHOTS = process.env.APPEARANCE_SCREENSHOTS;

/** The main pages, each with what shows it has loaded. */
const PAGES: { name: string; path: string; ready: (page: Page) => Promise<unknown> }[] = [
  {
    name: 'chat',
    path: ROUTES.friends,
    ready: (p) => p.getByRole('log', { name: MSG.chat.historyLabel }).getByText(HELLO).waitFor(),
  },
  { name: 'buddyfinder', path: ROUTES.matchmaking, ready: (p) => heading(p, MSG.match.title) },
  { name: 'groups', path: ROUTES.groups, ready: (p) => heading(p, MSG.groups.title) },
  { name: 'coursework', path: ROUTES.assignments, ready: (p) => heading(p, MSG.coursework.title) },
  { name: 'courses', path: ROUTES.courses, ready: (p) => p.getByText(MSG.courses.yourCourses).first().waitFor() },
  { name: 'notifications', path: ROUTES.notifications, ready: (p) => heading(p, MSG.notifications.title) },
  { name: 'profile', path: ROUTES.profile, ready: (p) => heading(p, MSG.profile.title) },
  { name: 'feedback', path: ROUTES.feedback, ready: (p) => heading(p, MSG.feedback.title) },
];

const heading = (page: Page, name: string) => page.getByRole('heading', { name }).first().waitFor();
const scheme = (page: Page) => page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme'));
const themeColor = (page: Page) => page.locator('meta[name="theme-color"]').getAttribute('content');
/** The page's own background, as the student sees it. */
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

async function waitForScheme(page: Page, wanted: 'light' | 'dark') {
  await page.waitForFunction(
    ([s, color]) =>
      document.documentElement.getAttribute('data-mantine-color-scheme') === s &&
      document.querySelector<HTMLMetaElement>('meta[name="theme-color"]')?.content === color,
    [wanted, THEME_COLOR[wanted]] as const,
  );
}

const screenshots = (page: Page, name: string) => screenshotWidths(page, SHOTS, `${name}-dark`);

describe('appearance: dark mode and the browser’s own date format, in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  /** When the server stored the chat's message. */
  let sent: Date;
  /** Ada's session: the journeys below start signed in (the log-in form is not what they look at). */
  let ada: SessionState;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        { email: ADA, name: 'Ada Lovelace', friends: [BEN], courses: ['CS 101 Programming'] },
        { email: BEN, name: 'Ben Carter', courses: ['CS 101 Programming'] },
      ]),
      launchBrowser(),
    ]);
    ada = await sessionState(server.url, ADA);
    const page = await newPage(browser, { storageState: ada });
    const chat = chatIdFor(server.userIds[ADA]!, server.userIds[BEN]!);
    const res = await page.request.post(`${server.url}/api/chats/${chat}/messages`, {
      data: { id: randomUUID(), type: 'text', content: HELLO },
    });
    expect(res.status()).toBe(201);
    sent = new Date(((await res.json()) as { message: { createdAt: string } }).message.createdAt);
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const chatPath = () => `${ROUTES.friends}?friend=${server.userIds[BEN]}`;

  it('follows a dark system setting on every main page, the log-in page and the title bar too, with axe clean in both schemes', async () => {
    const page = await newPage(browser, { colorScheme: 'dark', viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}${ROUTES.login}`);
    await heading(page, MSG.login.title);
    await waitForScheme(page, 'dark');
    expect(await bodyBackground(page)).toBe('rgb(36, 36, 36)');
    await expectAccessible(page);
    await screenshots(page, 'login');

    await page.context().addCookies(ada.cookies);
    for (const p of PAGES) {
      await page.goto(`${server.url}${p.name === 'chat' ? chatPath() : p.path}`);
      await p.ready(page);
      expect(await scheme(page)).toBe('dark');
      expect(await themeColor(page)).toBe(THEME_COLOR.dark);
      await expectAccessible(page);
      await screenshots(page, p.name);
    }

    // The system turns light: the page follows at once, without a reload.
    await page.emulateMedia({ colorScheme: 'light' });
    await waitForScheme(page, 'light');
    expect(await bodyBackground(page)).toBe('rgb(255, 255, 255)');
    await page.close();
    // Nine pages, each judged by axe in both schemes: a long journey on a busy machine.
  }, 300_000);

  it('a dark system gets a dark page even before the app’s code has run (no white flash)', async () => {
    const page = await newPage(browser, { colorScheme: 'dark' });
    // The app's scripts never arrive: only the page and its stylesheet.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(`${server.url}${ROUTES.login}`, { waitUntil: 'commit' });
    await page.waitForFunction(
      () => !!document.body && getComputedStyle(document.body).backgroundColor === 'rgb(36, 36, 36)',
    );
    expect(await scheme(page)).toBeNull();
    await page.close();
  });

  it('Light / Dark / System in the account menu: kept by the browser across a reload and its other tabs', async () => {
    const page = await newPage(browser, {
      colorScheme: 'dark',
      viewport: { width: 1280, height: 900 },
      storageState: ada,
    });
    await page.goto(`${server.url}${ROUTES.notifications}`);
    await heading(page, MSG.notifications.title);
    const other = await page.context().newPage();
    await other.goto(`${server.url}${ROUTES.groups}`);
    await heading(other, MSG.groups.title);
    await waitForScheme(other, 'dark');

    // Each switch repaints both tabs, slow on a busy machine: the menu stays open from reading the choice to
    // making the next one, as a student would use it.
    const openMenu = () => page.getByRole('button', { name: 'Account menu' }).click();
    const closeMenu = async () => {
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'hidden' });
    };
    const checked = async () => {
      const item = page.getByRole('menuitemradio', { checked: true });
      await item.waitFor();
      return (await item.textContent())?.trim();
    };
    const choose = async (label: string) => {
      await page.getByRole('menuitemradio', { name: label }).click();
      await page.getByRole('menuitemradio', { name: label, checked: true }).waitFor();
    };

    await openMenu();
    expect(await checked()).toBe(MSG.shell.colorSchemes.auto);
    // The open menu on a dark system: judged in dark, and its contrast in light.
    await expectAccessible(page);
    await choose(MSG.shell.colorSchemes.light);
    await waitForScheme(page, 'light');
    await waitForScheme(other, 'light');
    await page.reload();
    await heading(page, MSG.notifications.title);
    await waitForScheme(page, 'light');
    await openMenu();
    expect(await checked()).toBe(MSG.shell.colorSchemes.light);
    await expectAccessible(page);

    // Dark on a light system.
    await page.emulateMedia({ colorScheme: 'light' });
    await choose(MSG.shell.colorSchemes.dark);
    await closeMenu();
    await waitForScheme(page, 'dark');
    await waitForScheme(other, 'dark');
    await other.close();
    await expectAccessible(page);

    // System again: the light system's colours.
    await openMenu();
    await choose(MSG.shell.colorSchemes.auto);
    await waitForScheme(page, 'light');
    await page.close();
  });

  it('a system asking for less motion gets the account menu without its fade; otherwise it fades in', async () => {
    const menuTransitions = async (reducedMotion: 'reduce' | 'no-preference') => {
      const page = await newPage(browser, { reducedMotion, storageState: ada, viewport: { width: 1280, height: 900 } });
      await page.goto(`${server.url}${ROUTES.notifications}`);
      await heading(page, MSG.notifications.title);
      // Counts the CSS transitions that start in the menu as it opens (Mantine's fade and scale).
      await page.evaluate(() => {
        const seen = window as unknown as { menuTransitions: number };
        seen.menuTransitions = 0;
        document.addEventListener('transitionrun', (e) => {
          if ((e.target as Element).closest('[role="menu"]')) seen.menuTransitions += 1;
        });
      });
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitemradio', { name: MSG.shell.colorSchemes.auto }).waitFor();
      await transitionsEnded(page);
      const count = await page.evaluate(() => (window as unknown as { menuTransitions: number }).menuTransitions);
      await page.close();
      return count;
    };
    expect(await menuTransitions('no-preference')).toBeGreaterThan(0);
    expect(await menuTransitions('reduce')).toBe(0);
  });

  it('a German browser in Berlin shows German dates and times: gestern, a weekday, a date', async () => {
    const page = await newPage(browser, {
      locale: 'de-DE',
      timezoneId: 'Europe/Berlin',
      viewport: { width: 1280, height: 900 },
      storageState: ada,
    });
    const berlin = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', ...options }).format(sent);
    const time = berlin({ timeStyle: 'short' });
    const bubble = page.getByRole('log', { name: MSG.chat.historyLabel }).locator('[data-message-id]').first();
    const day = 86_400_000;
    const year = (d: Date) =>
      new Intl.DateTimeFormat('de-DE', { timeZone: 'Europe/Berlin', year: 'numeric' }).format(d);
    // The year is written only when it is not this one (the journey may run in late December).
    const tenDaysOn = berlin({
      month: 'short',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      ...(year(sent) === year(new Date(sent.getTime() + 10 * day)) ? {} : { year: 'numeric' }),
    });

    // The page's clock a day on, three days on, then ten: the same message, dated as a German reader expects.
    const cases: [number, string][] = [
      [0, time],
      [day, `gestern ${time}`],
      [3 * day, berlin({ weekday: 'short', hour: 'numeric', minute: '2-digit' })],
      [10 * day, tenDaysOn],
    ];
    for (const [later, expected] of cases) {
      await page.clock.setFixedTime(new Date(sent.getTime() + later));
      await page.goto(`${server.url}${chatPath()}`);
      await bubble.getByText(HELLO).waitFor();
      await expect.poll(() => bubble.textContent()).toContain(expected);
    }
    expect(cases[3]![1]).toMatch(/\d{1,2}\. \p{L}+\.?, \d{1,2}:\d{2}/u);

    // The signed-in browsers in Profile: today's log-in in German words.
    await page.clock.setFixedTime(new Date());
    await page.goto(`${server.url}${ROUTES.profile}`);
    // (Logged in moments ago: yesterday only when midnight fell in between.)
    await page
      .getByText(new RegExp(`^${MSG.account.signedIn('(heute|gestern)')} \\d{2}:\\d{2}$`))
      .first()
      .waitFor();
    await expectAccessible(page);
    await page.close();
  });
});
