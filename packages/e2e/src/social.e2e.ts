import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import type { MatchCandidate, MatchPage } from '@studybuddy/shared/social';
import { logIn } from './profile-helpers.ts';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { fakeSession } from './fake-session.ts';
import { startServer, type RunningServer } from './server.ts';

const ADA = 'ada.social@g.ucla.edu';
const BEN = 'ben.social@g.ucla.edu';
const CAL = 'cal.social@g.ucla.edu';
const DEE = 'dee.social@g.ucla.edu';
const TAM = 'tam.social@andrew.cmu.edu';
const COURSES = ['CS 31', 'Math 32A', 'Physics 1A'];

describe('match finder, friend requests, notifications and friends in Chromium (two students)', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let ben: Page;

  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({}, [
        { email: ADA, name: 'Ada Lovelace', major: 'Computer Science', year: 'Junior', courses: COURSES },
        // Ben shares three courses with Ada; Cal shares one (same major and year): Ben ranks first.
        { email: BEN, name: 'Ben Carter', major: 'Physics', year: 'Senior', courses: COURSES },
        { email: CAL, name: 'Cal Diaz', major: 'Computer Science', year: 'Junior', courses: ['CS 31'] },
        { email: DEE, name: 'Dee Evans', major: 'History', year: 'Freshman', courses: [] },
        { email: TAM, name: 'Tam Tartan', major: 'Computer Science', year: 'Junior', courses: COURSES },
      ]),
      launchBrowser(),
    ]);
    [ada, ben] = await Promise.all([newPage(browser), newPage(browser)]);
    await Promise.all([logIn(ada, server.url, ADA), logIn(ben, server.url, BEN)]);
  });
  afterAll(async () => {
    await Promise.all([ada?.context().close(), ben?.context().close()]);
    await browser?.close();
    await server?.stop();
  });

  const card = (page: Page) => page.getByTestId('match-candidate');
  const candidateName = (page: Page) => card(page).getByRole('heading').first().innerText();
  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });
  const badge = (page: Page) =>
    page.getByRole('navigation', { name: 'Main navigation' }).getByTestId('notifications-badge');

  it('A sees B ranked above a student with fewer shared courses, connects, unsends, and a duplicate send is refused', async () => {
    await ben.goto(`${server.url}/friends`);
    await ben.getByRole('heading', { name: MSG.friends.title }).waitFor();
    expect(await badge(ben).count()).toBe(0);

    await ada.goto(`${server.url}/matchmaking`);
    await ada.getByRole('heading', { name: MSG.match.title }).waitFor();
    await card(ada).waitFor();
    expect(await candidateName(ada)).toBe('Ben Carter');
    for (const course of COURSES) expect(await card(ada).getByText(course, { exact: true }).isVisible()).toBe(true);
    expect(await card(ada).getByText('UCLA').isVisible()).toBe(true);
    expect(await card(ada).getByText(MSG.match.noBio).isVisible()).toBe(true);
    // Another student of another college is never suggested; the next one down is Cal.
    await expectAccessible(ada);

    // A second tab that still shows Ben with Connect.
    const adaTab2 = await ada.context().newPage();
    await adaTab2.goto(`${server.url}/matchmaking`);
    await card(adaTab2).getByRole('button', { name: MSG.match.connect }).waitFor();
    // Keep that tab stale: the live update would refetch its list and show Unsend; the refetch is left hanging.
    await adaTab2.route('**/api/social/matches**', () => undefined);

    await card(ada).getByRole('button', { name: MSG.match.connect }).click();
    await toast(ada, MSG.match.sent('Ben Carter')).waitFor();
    await card(ada).getByRole('button', { name: MSG.match.unsend }).waitFor();

    await card(adaTab2).getByRole('button', { name: MSG.match.connect }).click();
    await toast(adaTab2, MSG.match.alreadySent).waitFor();
    await adaTab2.close();

    // Unsend, then connect again.
    await card(ada).getByRole('button', { name: MSG.match.unsend }).click();
    await toast(ada, MSG.match.removed).waitFor();
    await card(ada).getByRole('button', { name: MSG.match.connect }).click();
    await toast(ada, MSG.match.sent('Ben Carter')).last().waitFor();
    await card(ada).getByRole('button', { name: MSG.match.unsend }).waitFor();

    await card(ada).getByRole('button', { name: MSG.match.next }).click();
    await expect.poll(() => candidateName(ada)).toBe('Cal Diaz');
    await card(ada).getByRole('button', { name: MSG.match.next }).click();
    await expect.poll(() => candidateName(ada)).toBe('Dee Evans');
    await card(ada).getByRole('button', { name: MSG.match.next }).click();
    await ada.getByText(MSG.match.empty).waitFor();
    expect(await ada.getByText('Tam Tartan').count()).toBe(0);
  });

  it("B's Notifications badge rises without reload; the page marks it viewed; B views A's profile and accepts", async () => {
    // Still on /friends since the first test: no reload.
    await badge(ben).waitFor({ timeout: 15_000 });
    expect(await badge(ben).getAttribute('data-pending')).toBe('1');
    expect(await badge(ben).getByTestId('notifications-dot').count()).toBe(1);
    await expectAccessible(ben);

    await ben
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: /Notifications/ })
      .click();
    await ben.getByRole('heading', { name: MSG.notifications.title, level: 1 }).waitFor();
    await ben.getByRole('heading', { name: MSG.notifications.friendRequests }).waitFor();
    const item = ben.getByTestId('friend-request').filter({ hasText: 'Ada Lovelace' });
    await item.getByText(MSG.notifications.sentYou).waitFor();
    // Viewed: the dot goes, the count stays.
    await expect.poll(() => badge(ben).getByTestId('notifications-dot').count()).toBe(0);
    expect(await badge(ben).getAttribute('data-pending')).toBe('1');
    // Off the sidebar link: the shell's hover colour of the active link is not what is checked here.
    await ben.mouse.move(700, 700);
    await expectAccessible(ben);

    await item.getByRole('button', { name: MSG.notifications.viewProfile }).click();
    const modal = ben.getByRole('dialog');
    await modal.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    for (const text of ['UCLA', MSG.match.sharedCourses, MSG.match.bio, MSG.match.noBio, ...COURSES]) {
      expect(await modal.getByText(text, { exact: true }).first().isVisible()).toBe(true);
    }
    expect(await modal.getByTestId('image-carousel').count()).toBe(0);
    expect(await modal.getByRole('img', { name: 'Ada Lovelace' }).count()).toBe(1);
    await expectAccessible(ben);
    await ben.keyboard.press('Escape');
    await modal.waitFor({ state: 'hidden' });

    await item.getByRole('button', { name: MSG.notifications.accept }).click();
    await toast(ben, MSG.match.connected('Ada Lovelace')).waitFor();
    await ben.getByText(MSG.notifications.empty).waitFor();
    await expect.poll(() => badge(ben).count()).toBe(0);
  });

  it('a failed decline puts the request back while it is still pending; a real decline removes it', async () => {
    const cal = await newPage(browser);
    await logIn(cal, server.url, CAL);
    const sent = await cal.request.post(`${server.url}/api/social/requests`, {
      data: { toUserId: server.userIds[BEN] },
    });
    expect(sent.status()).toBe(201);
    await cal.close();

    await ben.reload();
    const item = ben.getByTestId('friend-request').filter({ hasText: 'Cal Diaz' });
    await item.waitFor();
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await ben.route('**/api/social/requests/*/decline', async (route) => {
      await held;
      await route.fulfill({ status: 500, json: { error: { code: 'internal', message: 'boom' } } });
    });
    await item.getByRole('button', { name: MSG.notifications.decline }).click();
    await item.waitFor({ state: 'detached' });
    release();
    await toast(ben, MSG.notifications.declineFailed).waitFor();
    await item.waitFor();

    await ben.unroute('**/api/social/requests/*/decline');
    await item.getByRole('button', { name: MSG.notifications.decline }).click();
    await item.waitFor({ state: 'detached' });
    await ben.reload();
    await ben.getByText(MSG.notifications.empty).waitFor();
  });

  it('both see each other in Friends; A unfriends B and both lists update', async () => {
    await Promise.all([ada.goto(`${server.url}/friends`), ben.goto(`${server.url}/`)]);
    const row = (page: Page, name: string) => page.getByTestId('friend-row').filter({ hasText: name });
    await row(ada, 'Ben Carter').waitFor();
    await row(ben, 'Ada Lovelace').waitFor();
    // At the root path (the friends screen) Friends is the highlighted sidebar link, and only it.
    const benNav = ben.getByRole('navigation', { name: 'Main navigation' });
    expect(await benNav.getByRole('link', { name: /^Friends/ }).getAttribute('aria-current')).toBe('page');
    expect(await benNav.getByRole('link', { name: /^Friends/ }).getAttribute('data-active')).not.toBeNull();
    expect(await benNav.locator('a[data-active]').count()).toBe(1);
    await ada.getByText(MSG.friends.selectFriend).waitFor();
    await expectAccessible(ada);

    // The search filters the list.
    await ada.getByLabel(MSG.friends.search).fill('zzz');
    await ada.getByText(MSG.friends.noMatch).waitFor();
    await ada.getByLabel(MSG.friends.search).fill('ben');
    await row(ada, 'Ben Carter').waitFor();

    await ada.getByRole('button', { name: MSG.friends.options('Ben Carter') }).click();
    await ada.getByRole('menuitem', { name: MSG.friends.viewProfile }).click();
    await ada.getByRole('dialog').getByRole('heading', { name: 'Ben Carter' }).waitFor();
    await ada.keyboard.press('Escape');
    await ada.getByRole('dialog').waitFor({ state: 'hidden' });

    await ada.getByRole('button', { name: MSG.friends.options('Ben Carter') }).click();
    await ada.getByRole('menuitem', { name: MSG.friends.unfriend }).click();
    await toast(ada, MSG.friends.unfriended('Ben')).waitFor();
    await row(ada, 'Ben Carter').waitFor({ state: 'detached' });
    // B's list follows without a reload.
    await row(ben, 'Ada Lovelace').waitFor({ state: 'detached', timeout: 15_000 });
    await ben.getByText(MSG.friends.empty).waitFor();
  });

  it('at 375 px the friends screen shows the list or the chat, with a back button', async () => {
    const page = await newPage(browser, { viewport: { width: 375, height: 740 } });
    await logIn(page, server.url, CAL);
    // Cal and Dee become friends through the UI: Cal connects from the user search, Dee accepts.
    await page.goto(`${server.url}/matchmaking`);
    await page.getByRole('button', { name: MSG.match.search }).first().click();
    await page.getByLabel(MSG.match.searchLabel).fill('de');
    await page.getByRole('button', { name: /Dee Evans/ }).click();
    await card(page).getByRole('heading', { name: 'Dee Evans' }).waitFor();
    await expectAccessible(page);
    await card(page).getByRole('button', { name: MSG.match.connect }).click();
    await toast(page, MSG.match.sent('Dee Evans')).waitFor();

    const dee = await newPage(browser);
    await logIn(dee, server.url, DEE);
    await dee.goto(`${server.url}/matchmaking`);
    await card(dee).getByRole('button', { name: MSG.match.accept }).waitFor();
    expect(await candidateName(dee)).toBe('Cal Diaz');
    await card(dee).getByRole('button', { name: MSG.match.accept }).click();
    await toast(dee, MSG.match.connected('Cal Diaz')).waitFor();
    await dee.close();

    await page.goto(`${server.url}/friends`);
    const row = page.getByTestId('friend-row').filter({ hasText: 'Dee Evans' });
    await row.waitFor();
    expect(await page.getByText(MSG.friends.selectFriend).count()).toBe(0);
    await row.getByRole('button', { name: /^Dee Evans/ }).click();
    await page.getByRole('button', { name: MSG.friends.back }).waitFor();
    expect(await row.count()).toBe(0);
    await expectAccessible(page);
    await page.getByRole('button', { name: MSG.friends.back }).click();
    await row.waitFor();
    await page.context().close();
  });

  // The same server and browser: the carousel's student and candidate are answered by the page itself.
  it('the photo carousel advances every 10 s and pauses for 10 s after the student uses it', async () => {
    const page = await newPage(browser);
    await page.clock.install();
    await fakeSession(page);
    const candidate: MatchCandidate = {
      uid: 'u2',
      name: 'Grace Hopper',
      college: 'UCLA',
      major: 'Mathematics',
      year: 'Senior',
      bio: 'Compilers and coffee.',
      profilePicture: '/favicon.svg',
      images: ['/favicon.svg', '/favicon.svg?2', '/favicon.svg?3'],
      sharedCourses: ['CS 31'],
      score: 10,
      request: { kind: 'none' },
    };
    await page.route('**/api/social/matches?*', (route) =>
      route.fulfill({ json: { candidates: [candidate], nextCursor: null } satisfies MatchPage }),
    );
    await page.goto(`${server.url}/matchmaking`);
    const photo = (n: number) => page.getByRole('tab', { name: `Show photo ${n}` });
    await photo(1).waitFor();
    expect(await photo(1).getAttribute('aria-selected')).toBe('true');
    await expectAccessible(page);

    await page.clock.runFor(10_100);
    await expect.poll(() => photo(2).getAttribute('aria-selected')).toBe('true');

    // Manual use at t = 10.1 s: the next automatic step waits a full 10 s from now.
    await page.getByRole('button', { name: 'Next photo' }).click();
    await expect.poll(() => photo(3).getAttribute('aria-selected')).toBe('true');
    await page.clock.runFor(9_000);
    expect(await photo(3).getAttribute('aria-selected')).toBe('true');
    await page.clock.runFor(1_500);
    await expect.poll(() => photo(1).getAttribute('aria-selected')).toBe('true');
    await page.context().close();
  });
});
