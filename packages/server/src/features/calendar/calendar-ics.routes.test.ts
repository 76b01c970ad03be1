import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import nodeIcal, { type VEvent } from 'node-ical';
import type { CalendarFeedResponse } from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { inDays, item, seedCoursework } from './calendar-test-helpers.ts';

let t: TestApp;
let ada: TestUser;
let bo: TestUser;
const due = { essay: inDays(2), quiz: inDays(9, 23), past: inDays(-1) };

async function call(user: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: user ? { cookie: user.cookie } : {},
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

/** Minutes of an iCalendar duration such as -P1D or -PT10M (negative: before the start). */
function minutes(duration: string): number {
  const m = /^(-)?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(duration);
  if (!m) throw new Error(`not a duration: ${duration}`);
  const [, , w, d, h, min, s] = m.map((x) => Number(x ?? 0)) as number[];
  const total = w! * 10080 + d! * 1440 + h! * 60 + min! + s! / 60;
  return m[1] ? -total : total;
}

function events(ics: string): VEvent[] {
  return Object.values(nodeIcal.sync.parseICS(ics)).filter((c): c is VEvent => c?.type === 'VEVENT');
}

/** The §3 shape as an iCalendar event: times and the two reminders. */
function shape(e: VEvent) {
  const alarms = (e as unknown as { alarms?: { action: string; trigger: string }[] }).alarms ?? [];
  return {
    summary: e.summary,
    description: e.description,
    start: new Date(e.start as Date).toISOString(),
    end: new Date(e.end as Date).toISOString(),
    alarms: alarms.map((a) => ({ action: a.action, minutesBefore: -minutes(a.trigger) })),
  };
}

const expected = (name: string, dueAt: string) => ({
  summary: name,
  description: 'Your assignment is due.',
  start: new Date(Date.parse(dueAt) - 10 * 60_000).toISOString(),
  end: new Date(dueAt).toISOString(),
  alarms: [
    { action: 'EMAIL', minutesBefore: 1440 },
    { action: 'DISPLAY', minutesBefore: 10 },
  ],
});

beforeAll(async () => {
  // No Google credentials: .ics works without any Google account.
  t = await createTestApp({ RATE_LIMITS: 'false' });
  ada = await createUser(t.app, { name: 'Ada' });
  bo = await createUser(t.app, { name: 'Bo' });
  await seedCoursework(t.app, ada, [
    item('a1', 'Essay, part 1; draft', due.essay),
    item('quiz_2', 'Quiz 2', due.quiz),
    item('a3', 'Old lab', due.past),
    item('a4', 'Reading', null),
  ]);
  await seedCoursework(t.app, bo, [item('b1', 'Bo secret project', inDays(3))]);
});
afterAll(() => t?.close());

describe('POST /api/calendar/ics', () => {
  it('downloads the chosen items as an .ics file that a standard parser reads with the §3 times and reminders', async () => {
    const res = await call(ada, 'POST', '/api/calendar/ics', { item_ids: ['quiz_2', 'a1'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${MSG.calendar.icsFileName}"`);
    const parsed = events(res.body);
    expect(parsed.map(shape)).toEqual([expected('Quiz 2', due.quiz), expected('Essay, part 1; draft', due.essay)]);
    expect(new Set(parsed.map((e) => e.uid)).size).toBe(2);
    // The same item keeps its UID across downloads (re-import updates instead of duplicating).
    const again = events((await call(ada, 'POST', '/api/calendar/ics', { item_ids: ['a1'] })).body);
    expect(again[0]!.uid).toBe(parsed[1]!.uid);
  });

  it('refuses items without a due date, unknown or other users’ items, and a signed-out caller', async () => {
    const noDue = await call(ada, 'POST', '/api/calendar/ics', { item_ids: ['a1', 'a4'] });
    expect(noDue.statusCode).toBe(400);
    expect(noDue.json().error).toMatchObject({ message: MSG.calendar.noDueDate('Reading'), field: 'item_ids' });
    const foreign = await call(ada, 'POST', '/api/calendar/ics', { item_ids: ['b1'] });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toBe(MSG.calendar.unknownItems);
    const empty = await call(ada, 'POST', '/api/calendar/ics', { item_ids: [] });
    expect(empty.json().error.message).toBe(MSG.calendar.noneSelected);
    expect((await call(null, 'POST', '/api/calendar/ics', { item_ids: ['a1'] })).statusCode).toBe(401);
  });
});

describe('the private subscription feed', () => {
  const feedPath = (url: string) => new URL(url).pathname;

  it('is created on request; polling it (no session) lists the owner’s upcoming dated coursework only', async () => {
    expect((await call(ada, 'GET', '/api/calendar/feed')).json()).toEqual({ url: null });
    const created = (await call(ada, 'POST', '/api/calendar/feed')).json<CalendarFeedResponse>();
    expect(created.url).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/feed\/[A-Za-z0-9_-]{43}\.ics$/);
    expect((await call(ada, 'GET', '/api/calendar/feed')).json()).toEqual(created);

    await call(bo, 'POST', '/api/calendar/feed');
    const res = await call(null, 'GET', feedPath(created.url!));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(events(res.body).map(shape)).toEqual([
      expected('Essay, part 1; draft', due.essay),
      expected('Quiz 2', due.quiz),
    ]);
    expect(res.body).not.toContain('Bo secret project');
    expect(res.body).not.toContain('Old lab');
    expect(res.body).not.toContain(bo.email);
  });

  it('answers 404 for a wrong token, and for the old address after regenerate or revoke', async () => {
    const old = (await call(ada, 'GET', '/api/calendar/feed')).json<CalendarFeedResponse>().url!;
    for (const path of [
      '/api/calendar/feed/' + 'x'.repeat(43) + '.ics',
      '/api/calendar/feed/short.ics',
      feedPath(old).replace('.ics', ''),
      feedPath(old).replace(/.{5}\.ics$/, 'AAAAA.ics'),
    ]) {
      const res = await call(null, 'GET', path);
      expect(res.statusCode, path).toBe(404);
      expect(res.body).not.toContain('VCALENDAR');
    }
    const renewed = (await call(ada, 'POST', '/api/calendar/feed')).json<CalendarFeedResponse>().url!;
    expect(renewed).not.toBe(old);
    expect((await call(null, 'GET', feedPath(old))).statusCode).toBe(404);
    expect((await call(null, 'GET', feedPath(renewed))).statusCode).toBe(200);

    expect((await call(ada, 'DELETE', '/api/calendar/feed')).statusCode).toBe(204);
    expect((await call(null, 'GET', feedPath(renewed))).statusCode).toBe(404);
    expect((await call(ada, 'GET', '/api/calendar/feed')).json()).toEqual({ url: null });
  });

  it('managing the feed needs a session', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      expect((await call(null, method, '/api/calendar/feed')).statusCode).toBe(401);
    }
  });
});
