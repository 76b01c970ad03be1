import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import { filterCoursework, localDay, sortCoursework } from '@studybuddy/shared/coursework-filters';
import { DEFAULT_COURSEWORK_PREFERENCES, type CourseworkResponse } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import type { SessionInfo } from '@studybuddy/shared/session';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const EXPIRING = '7~JourneyTokenThatExpires000000000000000000000';
const DISCONNECTING = '7~JourneyTokenForDisconnect0000000000000000000';
const COURSES_FAIL = '7~JourneyTokenCourseListFails00000000000000000';
const MIDNIGHT = '7~JourneyTokenAcrossMidnight000000000000000000';
const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

let emu: Emulator;
let server: RunningServer;
let browser: Browser;

async function signedIn(email: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await newPage(browser, { viewport, timezoneId: TZ });
  const res = await page.request.post(`${server.url}/api/auth/login`, { data: { email, password: 'password123' } });
  if (!res.ok()) throw new Error(`log-in failed: ${res.status()}`);
  return page;
}

const cardNames = (page: Page) => page.locator('[data-testid="coursework-card"] h2').allTextContents();
const dayLabel = (day: string) =>
  new Date(`${day}T12:00:00`).toLocaleDateString('en-US', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function courseworkData(page: Page): Promise<CourseworkResponse> {
  const res = await page.request.post(`${server.url}/api/fetch-coursework`, { data: { tz: TZ } });
  expect(res.ok()).toBe(true);
  return (await res.json()) as CourseworkResponse;
}

/**
 * The connect modal's tutorial (requirements §2: an embedded tutorial video): a WebM with controls that Chromium plays,
 * English captions on by default whose cues are the catalogue's, a transcript behind a toggle, the steps as text.
 */
async function expectTutorialVideo(page: Page, feature: Locator) {
  const video = feature.locator('video');
  await video.waitFor();
  expect(await video.getAttribute('controls')).not.toBeNull();
  expect(await video.getAttribute('aria-label')).toBe(MSG.lms.tutorialVideo);
  const media = await video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<{ duration: number; width: number; src: string; track: string; mode: string; cues: string[] }>(
        (resolve, reject) => {
          const track = v.querySelector('track')!;
          const done = () => {
            const t = v.textTracks[0]!;
            const cues = [...(t.cues ?? [])].map((c) => (c as VTTCue).text);
            if (v.readyState < 1 || !cues.length) return;
            resolve({
              duration: v.duration,
              width: v.videoWidth,
              src: v.currentSrc,
              track: `${track.kind}|${track.srclang}|${track.default}`,
              mode: t.mode,
              cues,
            });
          };
          v.addEventListener('loadedmetadata', done);
          track.addEventListener('load', done);
          v.addEventListener('error', () => reject(new Error(v.error?.message ?? 'video error')));
          v.load();
          done();
        },
      ),
  );
  expect(new URL(media.src).pathname).toBe('/tutorial/canvas-token.webm');
  expect(media.duration).toBeGreaterThan(10);
  expect(media.width).toBeGreaterThan(0);
  expect(media).toMatchObject({ track: 'captions|en|true', mode: 'showing', cues: [...MSG.lms.tutorialCaptions] });
  const file = await page.request.get(media.src);
  expect(file.headers()['content-type']).toContain('video/webm');
  expect((await file.body()).length).toBeLessThan(600 * 1024);

  const toggle = feature.getByRole('button', { name: MSG.lms.showTranscript });
  expect(await toggle.getAttribute('aria-expanded')).toBe('false');
  await toggle.click();
  const transcript = feature.getByTestId('tutorial-transcript');
  for (const paragraph of MSG.lms.tutorialTranscript) await transcript.getByText(paragraph).waitFor();
  expect(await feature.getByRole('button', { name: MSG.lms.hideTranscript }).getAttribute('aria-expanded')).toBe(
    'true',
  );
  const steps = feature.getByRole('list', { name: MSG.lms.tutorialStepsTitle }).getByRole('listitem');
  expect(await steps.allTextContents()).toEqual([...MSG.lms.tutorialSteps]);
}

beforeAll(async () => {
  emu = await startEmulator({ tokens: [DEMO_TOKEN, EXPIRING, DISCONNECTING, COURSES_FAIL, MIDNIGHT] });
  [server, browser] = await Promise.all([
    startServer(
      {
        CANVAS_URL_UCLA: emu.url,
        RATE_LIMITS: 'false',
        LOG_LEVEL: 'trace',
      },
      [
        { email: 'ada@g.ucla.edu', name: 'Ada' },
        { email: 'bo@g.ucla.edu', name: 'Bo' },
        { email: 'cy@g.ucla.edu', name: 'Cy' },
        { email: 'dee@g.ucla.edu', name: 'Dee' },
        { email: 'eve@g.ucla.edu', name: 'Eve' },
      ],
    ),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await emu?.close();
});

describe('Canvas in Chromium', () => {
  it('connects (terms required), imports 10 of 12 courses, lists coursework, filters, and keeps preferences', async () => {
    const page = await signedIn('ada@g.ucla.edu');
    const sent: string[] = [];
    const received: Promise<string>[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/') && !r.url().endsWith('/api/lms/connect')) sent.push(r.url() + (r.postData() ?? ''));
    });
    page.on('response', (r) => {
      if (r.url().includes('/api/')) received.push(r.text().catch(() => ''));
    });

    await page.goto(`${server.url}/assignments`);
    await page.getByRole('heading', { name: MSG.coursework.notConnectedTitle }).waitFor();
    await expectAccessible(page);

    await page.getByRole('button', { name: MSG.lms.connect }).click();
    const feature = page.getByRole('dialog', { name: MSG.lms.featureTitle });
    await feature.getByText(MSG.lms.tutorialTitle).waitFor();
    await expectTutorialVideo(page, feature);
    await expectAccessible(page);
    // Unticked terms block.
    await feature.getByRole('button', { name: MSG.lms.continue }).click();
    await feature.getByText(MSG.lms.termsRequired).waitFor();
    expect(await page.getByRole('dialog', { name: MSG.lms.tokenTitle }).count()).toBe(0);
    // Ticked terms proceed.
    await feature.getByRole('checkbox', { name: MSG.lms.terms }).check();
    await feature.getByRole('button', { name: MSG.lms.continue }).click();
    const tokenDialog = page.getByRole('dialog', { name: MSG.lms.tokenTitle });
    const tokenInput = tokenDialog.getByLabel(MSG.lms.tokenLabel, { exact: true });
    await tokenInput.fill('short-token');
    await tokenDialog.getByRole('button', { name: MSG.lms.import }).click();
    await tokenDialog.getByText(MSG.lms.tokenTooShort).waitFor();
    await tokenInput.fill(DEMO_TOKEN);
    await expectAccessible(page);
    await tokenDialog.getByRole('button', { name: MSG.lms.import }).click();
    await page.getByText(MSG.lms.imported(10)).waitFor();

    // 10 of the 12 active courses are in the profile now.
    const session = (await (await page.request.get(`${server.url}/api/auth/session`)).json()) as SessionInfo;
    const active = emu.data.courses.filter((c) => c.enrollment === 'active').map((c) => c.name);
    expect(active).toHaveLength(12);
    const expected = [...active].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })).slice(0, 10);
    expect(session.profile!.courses.map((c) => c.name)).toEqual(expected);

    // Coursework listed: upcoming, earliest first.
    await page.locator('[data-testid="coursework-card"]').first().waitFor();
    const data = await courseworkData(page);
    expect(data.source).toBe('cache');
    const names = Object.fromEntries(data.courses.map((c) => [c.id, c.name]));
    const all = (prefs: Partial<typeof DEFAULT_COURSEWORK_PREFERENCES>, search = '') => {
      const p = { ...DEFAULT_COURSEWORK_PREFERENCES, ...prefs };
      return sortCoursework(filterCoursework(data.coursework, p, search, names, new Date()), p.sortBy, names).map(
        (i) => i.name,
      );
    };
    // Cards come 30 at a time.
    const view = (prefs: Partial<typeof DEFAULT_COURSEWORK_PREFERENCES>, search = '') =>
      all(prefs, search).slice(0, 30);
    expect(await cardNames(page)).toEqual(view({}));
    await expectAccessible(page);
    const upcoming = all({}).length;
    expect(upcoming).toBeGreaterThan(30);
    await page.getByRole('button', { name: MSG.coursework.showMore(upcoming - 30) }).click();
    expect(await cardNames(page)).toEqual(all({}).slice(0, 60));
    expect(await page.getByText(MSG.coursework.pastDue).count()).toBe(0);
    const firstCard = page.locator('[data-testid="coursework-card"]').first();
    const link = firstCard.getByRole('link', { name: /^View / });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('href')).toMatch(new RegExp(`^${emu.url}/courses/\\d+/`));
    expect(await firstCard.getByRole('button', { name: /Open study group for / }).count()).toBe(1);

    // Status, sort, search.
    await choose(page, MSG.coursework.statusLabel, MSG.coursework.status.past);
    expect(await cardNames(page)).toEqual(view({ filter: 'past' }));
    expect(await page.getByText(MSG.coursework.pastDue).count()).toBeGreaterThan(0);
    await choose(page, MSG.coursework.statusLabel, MSG.coursework.status.all);
    await choose(page, MSG.coursework.sortLabel, MSG.coursework.sort.dueDesc);
    expect(await cardNames(page)).toEqual(view({ filter: 'all', sortBy: 'dueDesc' }));
    await choose(page, MSG.coursework.sortLabel, MSG.coursework.sort.course);
    expect(await cardNames(page)).toEqual(view({ filter: 'all', sortBy: 'course' }));
    await page.getByRole('searchbox', { name: MSG.coursework.searchLabel }).fill('midterm');
    expect(await cardNames(page)).toEqual(view({ filter: 'all', sortBy: 'course' }, 'midterm'));
    expect((await cardNames(page)).length).toBe(10);
    await page.getByRole('searchbox', { name: MSG.coursework.searchLabel }).fill('');

    // Courses and groups: the group select is enabled only with a course selected.
    expect(await page.getByRole('combobox', { name: MSG.coursework.group }).isDisabled()).toBe(true);
    const course = data.courses[0]!;
    await page.getByRole('button', { name: `${MSG.coursework.courses}: ${MSG.coursework.allCourses}` }).click();
    await page.getByRole('checkbox', { name: course.name }).check();
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: `${MSG.coursework.courses}: ${MSG.coursework.nSelected(1)}` }).waitFor();
    expect(await cardNames(page)).toEqual(view({ filter: 'all', sortBy: 'course', selectedCourses: [course.id] }));
    await choose(page, MSG.coursework.group, 'Exams');
    expect(await cardNames(page)).toEqual(['Midterm Exam']);

    // Date range: the second click earlier than the first is swapped; the picker closes and filters.
    await choose(page, MSG.coursework.group, MSG.coursework.allGroups);
    await page.getByRole('button', { name: `${MSG.coursework.courses}: ${MSG.coursework.nSelected(1)}` }).click();
    await page.getByRole('checkbox', { name: MSG.coursework.allCourses }).check();
    await page.keyboard.press('Escape');
    const today = new Date();
    const plus = (n: number) => localDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() + n));
    await page.getByRole('button', { name: `${MSG.coursework.dateRange}: ${MSG.coursework.anyDate}` }).click();
    // Days before today are disabled (yesterday is on screen unless today starts the week).
    if (today.getDay() > 0)
      expect(await page.getByRole('button', { name: dayLabel(plus(-1)) }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: dayLabel(plus(12)) }).click();
    await page.getByText(MSG.coursework.pickEnd, { exact: false }).waitFor();
    await page.getByRole('button', { name: dayLabel(plus(2)) }).click();
    await page.getByRole('button', { name: dayLabel(plus(2)) }).waitFor({ state: 'detached' });
    const range = { startDate: plus(2), endDate: plus(12), dateRangeActive: true };
    expect(await cardNames(page)).toEqual(view({ filter: 'all', sortBy: 'course', ...range }));
    expect((await cardNames(page)).length).toBeLessThan(data.coursework.length);
    await expectAccessible(page);

    // Preferences survive a reload.
    await page.reload();
    await page.locator('[data-testid="coursework-card"]').first().waitFor();
    expect(await page.getByRole('combobox', { name: MSG.coursework.sortLabel }).inputValue()).toBe(
      MSG.coursework.sort.course,
    );
    expect(await page.getByRole('combobox', { name: MSG.coursework.statusLabel }).inputValue()).toBe(
      MSG.coursework.status.all,
    );
    expect(await cardNames(page)).toEqual(view({ filter: 'all', sortBy: 'course', ...range }));

    // Reset Filters: no courses, all groups, earliest first, upcoming, no dates.
    await page.getByRole('button', { name: MSG.coursework.resetFilters }).click();
    expect(await cardNames(page)).toEqual(view({}));
    await page.getByRole('button', { name: `${MSG.coursework.dateRange}: ${MSG.coursework.anyDate}` }).waitFor();
    expect(await page.getByRole('combobox', { name: MSG.coursework.statusLabel }).inputValue()).toBe(
      MSG.coursework.status.upcoming,
    );

    // Three forced refreshes, then the button shows 0 left and is disabled (the server refuses a 4th: server tests).
    for (const left of [2, 1, 0]) {
      await page.getByRole('button', { name: MSG.coursework.refresh(left + 1) }).click();
      await page.getByRole('button', { name: MSG.coursework.refresh(left) }).waitFor();
    }
    expect(await page.getByRole('button', { name: MSG.coursework.refresh(0) }).isDisabled()).toBe(true);

    // The token never went anywhere but the connect call, and never came back.
    const bodies = await Promise.all(received);
    expect(sent.some((s) => s.includes(DEMO_TOKEN))).toBe(false);
    expect(bodies.some((b) => b.includes(DEMO_TOKEN))).toBe(false);
    await page.close();
  }, 240_000);

  it('lists a forbidden type under Skipped Courses, survives throttling, and shows the expired-token help', async () => {
    emu.addFault({ kind: 'forbidden', token: EXPIRING, courseId: 1101, resource: 'quizzes' });
    emu.addFault({ kind: 'throttle', token: EXPIRING, path: '/assignment_groups$', times: 3 });
    emu.addFault({ kind: 'throttle', token: EXPIRING, path: '/discussion_topics$', times: 2, status: 403 });
    const page = await signedIn('bo@g.ucla.edu');
    const connected = await page.request.post(`${server.url}/api/lms/connect`, { data: { access_token: EXPIRING } });
    expect(connected.status()).toBe(200);
    emu.resetStats();
    await page.goto(`${server.url}/assignments`);
    const skipped = page.getByRole('region', { name: MSG.coursework.skippedTitle });
    await skipped.waitFor();
    expect(await skipped.textContent()).toContain(MSG.coursework.skippedEntry('1101', MSG.coursework.types.quiz));
    await page.locator('[data-testid="coursework-card"]').first().waitFor();
    const throttled = emu.requests.filter((r) => r.token === EXPIRING && (r.status === 429 || r.status === 403));
    expect(throttled.length).toBeGreaterThanOrEqual(5);
    expect(
      emu.requests.filter((r) => r.token === EXPIRING && /assignment_groups\?/.test(r.path) && r.status === 200).length,
    ).toBeGreaterThan(0);
    await expectAccessible(page);

    // Canvas stops accepting the token mid-session.
    emu.expireToken(EXPIRING);
    await page.getByRole('button', { name: MSG.coursework.refresh(3) }).click();
    const dialog = page.getByRole('dialog', { name: MSG.coursework.tokenExpiredTitle });
    await dialog.waitFor();
    expect(await dialog.getByRole('listitem').count()).toBe(7);
    const settings = dialog.getByRole('link', { name: MSG.coursework.openSettings });
    expect(await settings.getAttribute('href')).toBe(`${emu.url}/profile/settings`);
    expect(await settings.getAttribute('target')).toBe('_blank');
    await expectAccessible(page);
    // The refresh that failed was given back.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: MSG.coursework.refresh(3) }).waitFor();
    await page.getByRole('button', { name: MSG.coursework.refresh(3) }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: MSG.coursework.updateProfile }).click();
    await page.waitForURL(/\/profile$/);
    await page.close();
  }, 120_000);

  it('disconnects from the profile: token, address and caches go, and Coursework shows the not-connected state', async () => {
    const page = await signedIn('cy@g.ucla.edu');
    expect(
      (await page.request.post(`${server.url}/api/lms/connect`, { data: { access_token: DISCONNECTING } })).status(),
    ).toBe(200);
    await page.goto(`${server.url}/assignments`);
    await page.locator('[data-testid="coursework-card"]').first().waitFor();
    const userId = ((await (await page.request.get(`${server.url}/api/auth/session`)).json()) as SessionInfo).user!.id;
    expect(await page.evaluate((k) => localStorage.getItem(k) !== null, `sb.coursework.${userId}`)).toBe(true);

    await page.goto(`${server.url}/profile`);
    await page.getByRole('button', { name: MSG.profile.editProfile }).click();
    await page.getByRole('heading', { name: MSG.lms.sectionTitle }).waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: MSG.lms.disconnect }).click();
    await page.getByText(MSG.lms.disconnected).waitFor();
    await page.getByRole('button', { name: MSG.lms.connect }).waitFor();
    expect(await page.evaluate((k) => localStorage.getItem(k), `sb.coursework.${userId}`)).toBeNull();

    const status = await (await page.request.get(`${server.url}/api/lms/status`)).json();
    expect(status).toMatchObject({ connected: false, connection_id: null });
    const again = await page.request.post(`${server.url}/api/fetch-coursework`, { data: {} });
    expect(again.status()).toBe(400);
    expect((await again.json()).error.message).toBe(MSG.lms.notConnected);

    await page.goto(`${server.url}/assignments`);
    await page.getByRole('heading', { name: MSG.coursework.notConnectedTitle }).waitFor();
    expect(await page.locator('[data-testid="coursework-card"]').count()).toBe(0);
    await page.close();
  }, 120_000);

  it('says the courses could not be loaded when Canvas fails the course list, and imports once it answers', async () => {
    emu.addFault({ kind: 'forbidden', token: COURSES_FAIL, resource: 'courses' });
    try {
      const page = await signedIn('eve@g.ucla.edu');
      await page.goto(`${server.url}/assignments`);
      await page.getByRole('button', { name: MSG.lms.connect }).click();
      const feature = page.getByRole('dialog', { name: MSG.lms.featureTitle });
      await feature.getByRole('checkbox', { name: MSG.lms.terms }).check();
      await feature.getByRole('button', { name: MSG.lms.continue }).click();
      const tokenDialog = page.getByRole('dialog', { name: MSG.lms.tokenTitle });
      await tokenDialog.getByLabel(MSG.lms.tokenLabel, { exact: true }).fill(COURSES_FAIL);
      await tokenDialog.getByRole('button', { name: MSG.lms.import }).click();
      await tokenDialog.getByRole('alert').getByText(MSG.courses.loadCoursesFailed, { exact: true }).waitFor();
      await expectAccessible(page);
      expect((await (await page.request.get(`${server.url}/api/lms/status`)).json()).connected).toBe(false);

      emu.clearFaults();
      await tokenDialog.getByRole('button', { name: MSG.lms.import }).click();
      await page.getByText(MSG.lms.imported(10)).waitFor();
      await page.close();
    } finally {
      emu.clearFaults();
    }
  }, 120_000);

  it('at local midnight loads the coursework from the server, past the browser cache, without spending a refresh', async () => {
    const page = await signedIn('dee@g.ucla.edu');
    expect(
      (await page.request.post(`${server.url}/api/lms/connect`, { data: { access_token: MIDNIGHT } })).status(),
    ).toBe(200);
    // The browser's clock is fake from here on, starting at the real time (the server dates its copies by that).
    await page.clock.install({ time: new Date() });
    await page.goto(`${server.url}/assignments`);
    await page.locator('[data-testid="coursework-card"]').first().waitFor();
    await page.getByRole('button', { name: MSG.coursework.refresh(3) }).waitFor();

    // Canvas changes and the server's copy follows (a refresh from another device); this browser's cache does not.
    const shown = await cardNames(page);
    const item = emu.data.assignments.find(
      (a) => shown.includes(a.name) && emu.data.assignments.filter((b) => b.name === a.name).length === 1,
    )!;
    const oldName = item.name;
    item.name = 'Lab report (renamed in Canvas)';
    try {
      const forced = await page.request.post(`${server.url}/api/fetch-coursework`, { data: { force: true, tz: TZ } });
      expect((await forced.json()).refreshes_remaining).toBe(2);
      expect(await page.getByText(item.name).count()).toBe(0);

      const loads: string[] = [];
      page.on('request', (r) => {
        if (r.url().endsWith('/api/fetch-coursework')) loads.push(r.postData() ?? '');
      });
      const now = await page.evaluate(() => Date.now());
      const midnight = new Date(now);
      midnight.setHours(24, 0, 0, 0);
      await page.clock.fastForward(midnight.getTime() - now + 2_000);
      await page.getByText(item.name).first().waitFor();
      expect(loads).toHaveLength(1);
      expect(JSON.parse(loads[0]!)).not.toHaveProperty('force');
      // The midnight load spent none of the day's refreshes.
      await page.getByRole('button', { name: MSG.coursework.refresh(2) }).waitFor();
      const status = await (await page.request.get(`${server.url}/api/lms/status?tz=${encodeURIComponent(TZ)}`)).json();
      expect(status.refreshes_remaining).toBe(2);
    } finally {
      item.name = oldName;
      await page.close();
    }
  }, 120_000);

  it('never wrote a token into a log line (log level trace)', () => {
    const logs = server.logs.join('');
    expect(logs.length).toBeGreaterThan(1000);
    for (const token of [DEMO_TOKEN, EXPIRING, DISCONNECTING, COURSES_FAIL, MIDNIGHT])
      expect(logs).not.toContain(token);
  });
});
