import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible } from './browser.ts';
import type { RunningServer } from './server.ts';
import { twoFriendsSignedIn } from './two-friends.ts';

const ADA = 'ada.schedule@g.ucla.edu';
const BEN = 'ben.schedule@g.ucla.edu';

/** Ben's timetable: a lecture every Tuesday 14:00–15:00 Berlin time, one Tuesday cancelled (EXDATE) long ago. */
const TIMETABLE = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//University//Timetable//EN',
  'BEGIN:VEVENT',
  'UID:lecture-cs1102',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;TZID=Europe/Berlin:20261103T140000',
  'DTEND;TZID=Europe/Berlin:20261103T150000',
  'RRULE:FREQ=WEEKLY',
  'EXDATE;TZID=Europe/Berlin:20261110T140000',
  'SUMMARY:CS 1102 lecture',
  'END:VEVENT',
  'END:VCALENDAR',
].join('\r\n');

const TUESDAY = 1;
const cellOf = (day: number, hour: number, minute = 0) => day * 48 + hour * 2 + minute / 30;

describe('free time and Find a time in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let ada: Page;
  let ben: Page;
  let groupId: string;

  beforeAll(async () => {
    ({ server, browser, ada, ben } = await twoFriendsSignedIn(ADA, BEN, {
      viewport: { width: 1280, height: 900 },
      locale: 'en-GB',
      timezoneId: 'Europe/Berlin',
    }));
    const made = await ada.request.post(`${server.url}/api/groups`, {
      data: { name: 'Study Hall', memberIds: [server.userIds[BEN]] },
    });
    expect(made.status()).toBe(201);
    groupId = ((await made.json()) as { id: string }).id;
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const cell = (page: Page, index: number) => page.locator(`[data-cell="${index}"]`);
  const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root', { hasText: text });

  async function screenshots(page: Page, name: string) {
    const dir = process.env.SCHEDULE_SCREENSHOTS;
    if (!dir) return;
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: 900 });
      await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
      await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  /** Drags from one cell to another of the same day with the mouse. */
  async function drag(page: Page, from: number, to: number) {
    const a = (await cell(page, from).boundingBox())!;
    const b = (await cell(page, to).boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 8 });
    await page.mouse.up();
  }

  async function openSchedule(page: Page) {
    await page.goto(`${server.url}/`);
    await page.getByRole('link', { name: 'Schedule' }).first().click();
    await page.getByRole('grid', { name: MSG.schedule.gridLabel }).waitFor();
  }

  it('Ada paints Tuesday 14:00–16:00 with the mouse and 16:00 with the keyboard alone, and saves', async () => {
    await openSchedule(ada);
    await drag(ada, cellOf(TUESDAY, 14), cellOf(TUESDAY, 15, 30));
    for (let m = 0; m < 4; m++) {
      await expect.poll(() => cell(ada, cellOf(TUESDAY, 14) + m).getAttribute('aria-selected')).toBe('true');
    }
    // Keyboard alone: the grid's one tab stop (Monday 09:00), then arrows and Space.
    await cell(ada, cellOf(0, 9)).focus();
    await ada.keyboard.press('ArrowRight');
    for (let i = 0; i < 14; i++) await ada.keyboard.press('ArrowDown');
    await ada.keyboard.press('Space');
    expect(await cell(ada, cellOf(TUESDAY, 16)).getAttribute('aria-selected')).toBe('true');
    expect(await cell(ada, cellOf(TUESDAY, 16)).getAttribute('tabindex')).toBe('0');
    await ada.keyboard.press('Space');
    expect(await cell(ada, cellOf(TUESDAY, 16)).getAttribute('aria-selected')).toBe('false');
    await ada.keyboard.press('Space');
    await ada.getByRole('button', { name: MSG.schedule.save }).click();
    await toast(ada, MSG.schedule.saved).waitFor();
    await expectAccessible(ada);
    await screenshots(ada, 'schedule');
  });

  it('Ben paints Tuesday 10:00–18:00 and imports his timetable; a file that is not iCalendar is refused', async () => {
    await openSchedule(ben);
    await drag(ben, cellOf(TUESDAY, 10), cellOf(TUESDAY, 17, 30));
    await ben.getByRole('button', { name: MSG.schedule.save }).click();
    await toast(ben, MSG.schedule.saved).waitFor();

    const input = ben.locator('input[type="file"]');
    await input.setInputFiles({ name: 'notes.ics', mimeType: 'text/calendar', buffer: Buffer.from('just some notes') });
    await ben.getByRole('alert').filter({ hasText: MSG.schedule.notIcal }).waitFor();
    await input.setInputFiles({ name: 'timetable.ics', mimeType: 'text/calendar', buffer: Buffer.from(TIMETABLE) });
    await ben.getByText(MSG.schedule.importedFrom('timetable.ics')).waitFor();
    await ben.getByText('CS 1102 lecture').first().waitFor();
    await expectAccessible(ben);
    await screenshots(ben, 'schedule-import');
  });

  it('Find a time in the group proposes Tuesday 15:00–16:00, when both are free', async () => {
    await ada.goto(`${server.url}/groups?group=${encodeURIComponent(groupId)}`);
    await ada.getByRole('button', { name: MSG.findTime.open }).click();
    const dialog = ada.getByRole('dialog', { name: MSG.findTime.title });
    const first = dialog.getByTestId('proposed-slot').first();
    await first.waitFor();
    const text = await first.innerText();
    expect(text).toContain('Tue');
    expect(text).toContain('15:00–16:00');
    // Badges are upper-cased by the theme.
    expect(text.toLowerCase()).toContain(MSG.findTime.slotFree(2, 2).toLowerCase());
    // Only counts reach Ada's browser: not Ben's lecture.
    expect(await dialog.getByText('CS 1102').count()).toBe(0);
    await dialog.getByRole('img', { name: MSG.findTime.heatLabel }).waitFor();
    await expectAccessible(ada);
    await screenshots(ada, 'find-a-time');
  });

  it('Find a time with a friend in their chat', async () => {
    await ben.goto(`${server.url}/friends?friend=${server.userIds[ADA]}`);
    await ben.getByRole('button', { name: MSG.findTime.open }).click();
    const dialog = ben.getByRole('dialog', { name: MSG.findTime.title });
    await dialog.getByText(MSG.findTime.lengthOption(30), { exact: true }).click();
    const first = dialog.getByTestId('proposed-slot').first();
    await expect.poll(() => first.innerText()).toContain('15:00–15:30');
  });
});
