import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { CalendarFeedResponse } from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import type { StudySession } from '@studybuddy/shared/study-sessions';
import { expectAccessible } from './browser.ts';
import type { RunningServer } from './server.ts';
import { transitionsEnded } from './transitions.ts';
import { twoFriendsSignedIn } from './two-friends.ts';

const ADA = 'ada.sessions@g.ucla.edu';
const BEN = 'ben.sessions@g.ucla.edu';
const T = MSG.studySessions;

describe('study sessions and the shared focus timer in Chromium (issue 27 points 3, 4)', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let ben: Page;
  let groupId: string;
  let sessionId: string;

  beforeAll(async () => {
    ({ server, browser, ada, ben } = await twoFriendsSignedIn(ADA, BEN));
    const made = await ada.request.post(`${server.url}/api/groups`, {
      data: { name: 'Study crew', memberIds: [server.userIds[BEN]] },
    });
    groupId = ((await made.json()) as { id: string }).id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Modals fade in; the accessibility check must see them at full opacity. */
  const settledAccessible = async (page: Page) => {
    await transitionsEnded(page);
    await expectAccessible(page);
  };

  async function screenshots(page: Page, name: string) {
    const dir = process.env.STUDY_SESSIONS_SCREENSHOTS;
    if (!dir) return;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 720 });
  }

  /** The session in the student's calendar feed (a new private address, read as a calendar app would). */
  async function inFeed(page: Page, id: string): Promise<string | undefined> {
    const { url } = (await (await page.request.post(`${server.url}/api/calendar/feed`)).json()) as CalendarFeedResponse;
    const ics = await (await page.request.get(url!)).text();
    return ics.split('BEGIN:VEVENT').find((e) => e.includes(`UID:study-session-${id}@studybuddy`));
  }

  /**
   * The timer as both tabs show it at one instant: remaining time plus the instant it was read stays the same while
   * it runs, so the two sums differ by how far apart the tabs are.
   */
  async function timerGap(): Promise<number> {
    const read = (page: Page) =>
      page.evaluate(() => {
        const el = document.querySelector('[data-testid="timer-clock"]')!;
        return Number(el.getAttribute('data-remaining-ms')) + performance.timeOrigin + performance.now();
      });
    const [a, b] = await Promise.all([read(ada), read(ben)]);
    return Math.abs(a - b);
  }

  it('Find a time proposes a slot; a session is planned from it; the other answers Going; it is in both feeds', async () => {
    // Both painted their week free (the schedule feature's API), so Find a time proposes slots both are free.
    for (const page of [ada, ben]) {
      const res = await page.request.put(`${server.url}/api/schedule/week`, {
        data: { timeZone: 'UTC', cells: '1'.repeat(336) },
      });
      expect(res.ok()).toBe(true);
    }
    await ada.goto(`${server.url}/groups?group=${groupId}`);
    await ada.getByRole('button', { name: MSG.findTime.open }).click();
    const slot = ada.getByTestId('proposed-slot').first();
    await slot.getByText(MSG.findTime.slotFree(2, 2)).waitFor();
    await slot.getByRole('link', { name: T.fromSlot }).click();
    await ada.waitForURL(/\/study-sessions\/new\?/);
    const proposed = new URL(ada.url()).searchParams;
    expect(await ada.getByLabel(T.dateLabel).inputValue()).not.toBe('');
    expect(await ada.getByLabel(T.lengthLabel).inputValue()).toBe(proposed.get('minutes'));
    // A blank title is refused with the server's text; then the session is planned.
    await ada.getByLabel(T.placeLabel).fill('Library 2.14');
    await ada.getByRole('button', { name: T.create }).click();
    await ada.getByText(T.titleRequired).waitFor();
    await ada.getByLabel(T.titleLabel).fill('Exam review');
    await expectAccessible(ada);
    await screenshots(ada, 'plan-from-slot');
    await ada.getByRole('button', { name: T.create }).click();
    await ada.waitForURL(/\/study-sessions\/[0-9a-f-]{36}$/);
    sessionId = ada.url().split('/').at(-1)!;
    const planned = (await (
      await ada.request.get(`${server.url}/api/study-sessions/${sessionId}`)
    ).json()) as StudySession;
    expect(planned.start).toBe(new Date(proposed.get('start')!).toISOString());

    // Ben sees the card in the group's conversation and answers Going there.
    await ben.goto(`${server.url}/groups?group=${groupId}`);
    const card = ben.getByTestId('session-card');
    await card.getByText('Exam review').waitFor();
    await card.getByText(T.going, { exact: true }).click();
    await card.getByText(T.answers(2, 0, 0)).waitFor();
    await settledAccessible(ben);
    await screenshots(ben, 'card');

    const session = (await (
      await ben.request.get(`${server.url}/api/study-sessions/${sessionId}`)
    ).json()) as StudySession;
    expect(session.rsvps.map((r) => [r.name, r.answer])).toEqual([
      ['Ada Lovelace', 'going'],
      ['Ben Carter', 'going'],
    ]);
    for (const page of [ada, ben]) {
      const event = await inFeed(page, sessionId);
      expect(event).toContain('SUMMARY:Exam review');
      expect(event).toContain('STATUS:CONFIRMED');
    }
  });

  it('shows the same focus timer in both tabs within a second, also after a reload; who is here is live', async () => {
    await Promise.all([ada, ben].map((p) => p.goto(`${server.url}/study-sessions/${sessionId}`)));
    for (const page of [ada, ben]) {
      await page.getByTestId('present-list').getByText('Ada Lovelace').waitFor();
      await page.getByTestId('present-list').getByText('Ben Carter').waitFor();
    }
    await ben.getByText(T.onlyCreatorTimer).waitFor();
    await ada.getByRole('button', { name: T.start, exact: true }).click();
    // Ben's tab hears the start through the server and runs the same clock.
    await ben
      .getByRole('button', { name: T.start })
      .waitFor({ state: 'detached' })
      .catch(() => undefined);
    await ben.waitForFunction(() => {
      const el = document.querySelector('[data-testid="timer-clock"]');
      return !!el && Number(el.getAttribute('data-elapsed-ms')) > 0;
    });
    expect(await timerGap()).toBeLessThan(1000);
    await ben.getByLabel(T.yourGoal).fill('Problem set 3');
    await ben.getByRole('button', { name: T.setGoal }).click();
    await ada.getByTestId('present-list').getByText('Problem set 3').waitFor();
    await settledAccessible(ben);
    await screenshots(ada, 'room');

    // A reload sees the time the server kept, not a fresh start.
    await ben.reload();
    await ben.waitForFunction(() => {
      const el = document.querySelector('[data-testid="timer-clock"]');
      return !!el && Number(el.getAttribute('data-elapsed-ms')) > 1000;
    });
    expect(await timerGap()).toBeLessThan(1000);

    // Paused by the planner: both tabs stop at the same time.
    await ada.getByRole('button', { name: T.pause }).click();
    await ben.getByText(T.paused).waitFor();
    expect(await timerGap()).toBeLessThan(1000);
    await settledAccessible(ada);
  });

  it('plans by hand from the group’s header; a time in the past is refused', async () => {
    await ada.goto(`${server.url}/groups?group=${groupId}`);
    await ada.getByRole('button', { name: T.plan }).click();
    const dialog = ada.getByRole('dialog', { name: T.planIn('Study crew') });
    const today = await ada.evaluate(() => new Date().toLocaleDateString('en-CA'));
    await dialog.getByLabel(T.titleLabel).fill('Early start');
    await dialog.getByLabel(T.dateLabel).fill(today);
    await dialog.getByLabel(T.timeLabel).fill('00:00');
    await dialog.getByLabel(T.onlineLabel).check({ force: true });
    await dialog.getByRole('button', { name: T.create }).click();
    await dialog.getByText(T.inPast).waitFor();
    await settledAccessible(ada);
    await screenshots(ada, 'plan-form');
    const tomorrow = await ada.evaluate(() => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA'));
    await dialog.getByLabel(T.dateLabel).fill(tomorrow);
    await dialog.getByLabel(T.timeLabel).fill('08:00');
    await dialog.getByRole('button', { name: T.create }).click();
    await ada.waitForURL(/\/study-sessions\/[0-9a-f-]{36}$/);
    // The form's dialog (with its own "Online" switch) is gone before the session page is read.
    await dialog.waitFor({ state: 'hidden' });
    await ada.getByText(T.online, { exact: true }).waitFor();
  });
});
