import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startCalendarEmulator, type Emulator as CalendarEmulator } from '@studybuddy/calendar-emulator/server';
import { DEMO_TOKEN, startEmulator, type Emulator as CanvasEmulator } from '@studybuddy/canvas-emulator/server';
import type { CourseworkItem, CourseworkResponse } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

let canvas: CanvasEmulator;
let google: CalendarEmulator;
let server: RunningServer;
let browser: Browser;

async function signedIn(email: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
  const page = await newPage(browser, { viewport, timezoneId: TZ });
  const res = await page.request.post(`${server.url}/api/auth/login`, { data: { email, password: 'password123' } });
  if (!res.ok()) throw new Error(`log-in failed: ${res.status()}`);
  return page;
}

/** Connects Canvas through the API (the Canvas journey covers its UI) and returns the coursework as loaded. */
async function withCoursework(page: Page): Promise<CourseworkItem[]> {
  const connect = await page.request.post(`${server.url}/api/lms/connect`, { data: { access_token: DEMO_TOKEN } });
  expect(connect.ok()).toBe(true);
  const res = await page.request.post(`${server.url}/api/fetch-coursework`, { data: { tz: TZ } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as CourseworkResponse).coursework;
}

/**
 * A modal is judged on its own: the page behind it (inert) is judged in full in export mode here and in
 * lms.e2e.ts, and axe over the whole coursework list takes 8 s a scan at load 14 (measured).
 */
const DIALOG = '[role="dialog"]';

const cards = (page: Page) => page.locator('[data-testid="coursework-card"]');
const cardNamed = (page: Page, name: string) =>
  cards(page).filter({ has: page.getByRole('heading', { name, exact: true }) });

/** The first `n` cards shown that have a due date, by name. */
async function datedCardNames(page: Page, items: CourseworkItem[], n: number): Promise<string[]> {
  const shown = await page.locator('[data-testid="coursework-card"] h2').allTextContents();
  const dated = new Set(items.filter((i) => i.due_date).map((i) => i.name));
  const names = [...new Set(shown)].filter(
    (name) => dated.has(name) && items.filter((i) => i.name === name).length === 1,
  );
  expect(names.length).toBeGreaterThanOrEqual(n);
  return names.slice(0, n);
}

/** The §3 event Google must receive for an item. */
function expectedEvent(item: CourseworkItem) {
  const due = Date.parse(item.due_date!);
  return {
    summary: item.name,
    description: 'Your assignment is due.',
    start: { dateTime: new Date(due - 10 * 60_000).toISOString() },
    end: { dateTime: new Date(due).toISOString() },
    reminders: {
      useDefault: false,
      overrides: [
        { method: 'email', minutes: 1440 },
        { method: 'popup', minutes: 10 },
      ],
    },
  };
}

async function pickCalendar(page: Page, summary: string) {
  const dialog = page.getByRole('dialog', { name: MSG.calendar.selectTitle });
  await dialog.getByRole('combobox', { name: MSG.calendar.calendarLabel }).click();
  await page.getByRole('option', { name: summary, exact: true }).click();
  await dialog.getByRole('button', { name: MSG.calendar.done }).click();
  await page.getByRole('heading', { name: MSG.calendar.exportHeader }).waitFor();
}

beforeAll(async () => {
  [canvas, google] = await Promise.all([startEmulator({ throttle: false }), startCalendarEmulator()]);
  [server, browser] = await Promise.all([
    startServer({ CANVAS_URL_UCLA: canvas.url, RATE_LIMITS: 'false', ...google.env }, [
      { email: 'ada@g.ucla.edu', name: 'Ada' },
      { email: 'bo@g.ucla.edu', name: 'Bo' },
    ]),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await Promise.all([canvas?.close(), google?.close()]);
});

describe('calendar export in Chromium', () => {
  it('connects Google, picks a calendar, exports three cards with the §3 shape, then again without consent', async () => {
    const page = await signedIn('ada@g.ucla.edu');
    const items = await withCoursework(page);
    await page.goto(`${server.url}/assignments`);
    await cards(page).first().waitFor();

    // Connect: Google's consent page (the emulator agrees at once) and back, with prompt=consent the first time.
    await page.getByRole('button', { name: MSG.calendar.connect }).click();
    const dialog = page.getByRole('dialog', { name: MSG.calendar.selectTitle });
    await dialog.waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(google.authorizations).toHaveLength(1);
    expect(google.authorizations[0]!.prompt).toBe('consent');
    await dialog.getByRole('combobox', { name: MSG.calendar.calendarLabel }).waitFor();
    await expectAccessible(page, { within: DIALOG });
    await pickCalendar(page, 'Coursework');

    // Export mode: no flame buttons; clicking a card toggles it.
    expect(await page.getByRole('button', { name: /^Open study group for / }).count()).toBe(0);
    const names = await datedCardNames(page, items, 3);
    for (const name of names) await cardNamed(page, name).click();
    await cardNamed(page, names[0]!).click();
    expect(await cardNamed(page, names[0]!).getByRole('checkbox').isChecked()).toBe(false);
    await cardNamed(page, names[0]!).click();
    await page.getByText(MSG.calendar.selectedCount(3)).waitFor();
    await expectAccessible(page);

    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: MSG.calendar.export, exact: true }).click();
    await page.getByText(MSG.calendar.success).waitFor();
    const tab = await popup;
    const created = google.events.slice();
    expect(created).toHaveLength(3);
    const byName = new Map(items.map((i) => [i.name, i]));
    // In the order chosen: the first card was unticked and ticked again, so it went last.
    const order = [names[1]!, names[2]!, names[0]!];
    expect(created.map((e) => e.body)).toEqual(order.map((n) => expectedEvent(byName.get(n)!)));
    expect(created.every((e) => e.calendarId === 'coursework@group.calendar.example.com')).toBe(true);
    // The first created event opens in a new tab.
    await tab.waitForURL(created[0]!.htmlLink);
    expect(await tab.getByRole('heading', { name: order[0] }).isVisible()).toBe(true);
    await tab.close();
    // Export mode is over: the flame buttons are back.
    await page.getByRole('heading', { name: MSG.calendar.exportHeader }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: /^Open study group for / }).count()).toBeGreaterThan(0);

    // A second export within the token's lifetime: straight to the calendar choice, no consent page.
    await page.getByRole('button', { name: MSG.calendar.connect }).click();
    await dialog.waitFor();
    expect(google.authorizations).toHaveLength(1);
    await pickCalendar(page, 'Coursework');
    await cardNamed(page, names[1]!).click();
    const popup2 = page.waitForEvent('popup');
    await page.getByRole('button', { name: MSG.calendar.export, exact: true }).click();
    // The first export's toast may still be on screen: wait for the event itself, not for a success text.
    await (await popup2).close();
    await expect.poll(() => google.events.length).toBe(4);
    await page.getByText(MSG.calendar.success).first().waitFor();
    expect(google.events[3]!.body).toEqual(expectedEvent(byName.get(names[1]!)!));
    expect(google.authorizations).toHaveLength(1);
    expect(google.consentCount()).toBe(1);
    await page.close();
  });

  it('names the item whose event fails; the others are still created', async () => {
    const page = await signedIn('ada@g.ucla.edu');
    const items = await withCoursework(page);
    await page.goto(`${server.url}/assignments`);
    await cards(page).first().waitFor();
    const names = await datedCardNames(page, items, 3);
    google.failInsert({ summary: names[1]! });
    const before = google.events.length;

    await page.getByRole('button', { name: MSG.calendar.connect }).click();
    await pickCalendar(page, 'student@example.com');
    for (const name of names) await cardNamed(page, name).click();
    const popup = page.waitForEvent('popup');
    await page.getByRole('button', { name: MSG.calendar.export, exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: MSG.calendar.failure });
    await alert.first().waitFor();
    await page
      .getByRole('region', { name: MSG.calendar.exportHeader })
      .getByText(MSG.calendar.failedItems(names[1]!))
      .waitFor();
    await (await popup).close();
    const created = google.events.slice(before).map((e) => (e.body as { summary: string }).summary);
    expect(created).toEqual([names[0], names[2]]);
    // The failed item stays selected for another try.
    await page.getByText(MSG.calendar.selectedCount(1)).waitFor();
    expect(await cardNamed(page, names[1]!).getByRole('checkbox').isChecked()).toBe(true);
    google.clearFaults();
    await page.close();
  });

  it('disconnects Google after a confirmation; the next connect asks for consent again', async () => {
    const page = await signedIn('ada@g.ucla.edu');
    await withCoursework(page);
    await page.goto(`${server.url}/assignments`);
    await cards(page).first().waitFor();

    await page.getByRole('button', { name: MSG.calendar.googleOptions }).click();
    await page.getByRole('menuitem', { name: MSG.calendar.disconnect }).click();
    const confirm = page.getByRole('dialog', { name: MSG.calendar.disconnectTitle });
    await confirm.getByText(MSG.calendar.disconnectBody).waitFor();
    await expectAccessible(page, { within: DIALOG });
    const revocations = google.revocations.length;
    await confirm.getByRole('button', { name: MSG.calendar.disconnectConfirm, exact: true }).click();
    await page.getByText(MSG.calendar.disconnected).waitFor();
    await confirm.waitFor({ state: 'detached' });
    expect(google.revocations).toHaveLength(revocations + 1);
    expect(google.revocations.at(-1)!.kind).toBe('refresh');
    // The status was fetched again: the menu is gone with the connection.
    await page.getByRole('button', { name: MSG.calendar.googleOptions }).waitFor({ state: 'detached' });

    const visits = google.authorizations.length;
    await page.getByRole('button', { name: MSG.calendar.connect, exact: true }).click();
    await page.getByRole('dialog', { name: MSG.calendar.selectTitle }).waitFor();
    expect(google.authorizations).toHaveLength(visits + 1);
    expect(google.authorizations.at(-1)!.prompt).toBe('consent');
    await page.getByRole('button', { name: MSG.calendar.googleOptions }).waitFor();
    await page.close();
  });

  it('downloads an .ics of the selection and manages the private feed (mobile width)', async () => {
    const page = await signedIn('bo@g.ucla.edu', { width: 375, height: 800 });
    const items = await withCoursework(page);
    await page.goto(`${server.url}/assignments`);
    await cards(page).first().waitFor();
    const names = await datedCardNames(page, items, 2);
    await page.getByRole('button', { name: MSG.calendar.icsExport }).click();
    for (const name of names) await cardNamed(page, name).click();
    await expectAccessible(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: MSG.calendar.export, exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(MSG.calendar.icsFileName);
    const ics = await (await file.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8'));
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(2);
    expect(ics).toContain('TRIGGER:-P1D');
    expect(ics).toContain('TRIGGER:-PT10M');
    await page.getByText(MSG.calendar.icsDownloaded).waitFor();

    await page.getByRole('button', { name: MSG.calendar.feedButton }).click();
    const feed = page.getByRole('dialog', { name: MSG.calendar.feedTitle });
    await feed.getByRole('button', { name: MSG.calendar.feedCreate }).click();
    const input = feed.getByRole('textbox', { name: MSG.calendar.feedUrlLabel });
    await input.waitFor();
    await expectAccessible(page, { within: DIALOG });
    const url = await input.inputValue();
    const polled = await fetch(url);
    expect(polled.status).toBe(200);
    const body = await polled.text();
    expect(body).toContain('BEGIN:VCALENDAR');
    expect(body).not.toContain('ada@g.ucla.edu');
    await feed.getByRole('button', { name: MSG.calendar.feedRevoke }).click();
    await feed.getByRole('button', { name: MSG.calendar.feedCreate }).waitFor();
    expect((await fetch(url)).status).toBe(404);
    await page.close();
  });
});
