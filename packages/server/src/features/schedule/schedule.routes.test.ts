import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import type { FindATimeResult, ImportResult, MySchedule } from '@studybuddy/shared/schedule';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { friends } from '../chat/chat.test-kit.ts';
import type { FetchDeps } from './ics-fetch.ts';
import { createScheduleImportService } from './schedule-import.service.ts';

const DAY_MS = 86_400_000;
const ics = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** A weekly seminar starting tomorrow 10:00 UTC (two hours), one occurrence cancelled by EXDATE. */
function seminarCalendar(title: string, uid = 'seminar-1') {
  const start = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 3_600_000);
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${ics(start)}`,
    `DTEND:${ics(new Date(start.getTime() + 2 * 3_600_000))}`,
    'RRULE:FREQ=WEEKLY;COUNT=4',
    `EXDATE:${ics(new Date(start.getTime() + 7 * DAY_MS))}`,
    `SUMMARY:${title}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n');
}

describe('schedule', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let eve: TestUser;
  let groupId: string;
  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob, cy] = await friends(t.app, 3, ['Ada', 'Bob', 'Cy']);
    eve = await createUser(t.app, { name: 'Eve' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: ada.cookie },
      payload: { name: 'Algebra', description: '', memberIds: [bob.id] },
    });
    groupId = res.json<{ id: string }>().id;
  });
  afterAll(() => t.close());

  const as = (user: TestUser, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: user.cookie }, ...(payload === undefined ? {} : { payload }) });
  const saveWeek = (user: TestUser, timeZone: string, cells: string) =>
    as(user, 'PUT', '/api/schedule/week', { timeZone, cells });
  const allFree = '1'.repeat(336);

  it('saves a week of 336 cells in a valid zone and refuses anything else', async () => {
    for (const [payload, message] of [
      [{ timeZone: 'Europe/Berlin', cells: '1'.repeat(335) }, MSG.schedule.badCells],
      [{ timeZone: 'Europe/Berlin', cells: '2'.repeat(336) }, MSG.schedule.badCells],
      [{ timeZone: 'Mars/Olympus', cells: allFree }, MSG.schedule.badTimeZone],
      [{ timeZone: '../etc', cells: allFree }, MSG.schedule.badTimeZone],
    ] as const) {
      const res = await as(ada, 'PUT', '/api/schedule/week', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const saved = await saveWeek(ada, 'Europe/Berlin', allFree);
    expect(saved.statusCode).toBe(200);
    expect(saved.json<MySchedule>()).toMatchObject({ timeZone: 'Europe/Berlin', cells: allFree, saved: true });
    expect((await as(ada, 'GET', '/api/schedule')).json<MySchedule>().cells).toBe(allFree);
    expect((await t.app.inject({ method: 'GET', url: '/api/schedule' })).statusCode).toBe(401);
  });

  it('imports an .ics file as busy blocks; a bad file is refused by reason and the old schedule stays', async () => {
    const ok = await as(bob, 'POST', '/api/schedule/import/file', {
      fileName: 'timetable.ics',
      content: seminarCalendar('Bob secret seminar'),
    });
    expect(ok.statusCode).toBe(200);
    const imported = ok.json<ImportResult>();
    expect(imported.import).toMatchObject({ kind: 'file', source: 'timetable.ics', events: 3, lastError: null });
    // Three occurrences in the four weeks read; one of them in the next two weeks shown.
    expect(imported.busy.map((b) => b.title)).toEqual(['Bob secret seminar']);

    const refused: [object, number, string][] = [
      [{ fileName: 'x.ics', content: 'hello, not a calendar' }, 400, MSG.schedule.notIcal],
      [{ fileName: 'x.ics', content: `BEGIN:VCALENDAR\r\n${'X'.repeat(2 * 1024 * 1024)}` }, 413, MSG.schedule.tooLarge],
      [{ fileName: 'x.ics', content: '' }, 400, MSG.schedule.fileRequired],
    ];
    for (const [payload, status, message] of refused) {
      const res = await as(bob, 'POST', '/api/schedule/import/file', payload);
      expect([res.statusCode, res.json().error.message]).toEqual([status, message]);
    }
    for (const [url, message] of [
      ['https://127.0.0.1/cal.ics', MSG.schedule.privateAddress],
      ['https://10.0.0.1/cal.ics', MSG.schedule.privateAddress],
      ['https://169.254.169.254/latest', MSG.schedule.privateAddress],
      ['https://[::1]/cal.ics', MSG.schedule.privateAddress],
      ['http://example.org/cal.ics', MSG.schedule.notHttps],
    ]) {
      const res = await as(bob, 'POST', '/api/schedule/import/url', { url });
      expect([res.statusCode, res.json().error.message]).toEqual([400, message]);
    }
    const after = (await as(bob, 'GET', '/api/schedule')).json<MySchedule>();
    expect(after.import).toMatchObject({ kind: 'file', source: 'timetable.ics', events: 3 });
    expect(after.busy).toHaveLength(1);
  });

  it('finds a time in a group from counts only: never another member’s cells or titles', async () => {
    await saveWeek(bob, 'America/New_York', allFree);
    const res = await as(ada, 'GET', `/api/groups/${groupId}/find-a-time?length=120`);
    expect(res.statusCode).toBe(200);
    const found = res.json<FindATimeResult>();
    expect(found.memberCount).toBe(2);
    expect(found.counts).toHaveLength(672);
    expect(found.slots).toHaveLength(3);
    for (const s of found.slots) expect(s.freeCount).toBe(2);
    // Bob's seminar tomorrow 10:00–12:00 UTC: one free member there.
    const start = Date.parse(found.windowStart);
    const seminar = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 3_600_000;
    const cell = (seminar - start) / 1_800_000;
    expect(found.counts.slice(cell, cell + 4)).toEqual([1, 1, 1, 1]);
    expect(found.counts[cell - 1]).toBe(2);
    for (const s of found.slots) {
      expect(Date.parse(s.end) <= seminar || Date.parse(s.start) >= seminar + 2 * 3_600_000).toBe(true);
    }
    const text = res.body;
    expect(text).not.toContain('seminar');
    expect(text).not.toContain(allFree);
    expect(text).not.toContain('America/New_York');
    expect(Object.keys(found).sort()).toEqual(
      ['canSkipDueDates', 'cellMinutes', 'counts', 'dueDatesSkipped', 'memberCount', 'slots', 'windowStart'].sort(),
    );
  });

  it('refuses Find a time outside one’s groups and friendships, and a bad length', async () => {
    expect((await as(eve, 'GET', `/api/groups/${groupId}/find-a-time`)).statusCode).toBe(403);
    const notFriend = await as(eve, 'GET', `/api/friends/${ada.id}/find-a-time`);
    expect([notFriend.statusCode, notFriend.json().error.message]).toEqual([403, MSG.findTime.notFriends]);
    for (const q of ['length=45', 'length=0', 'length=600', 'length=abc', 'skipDue=-1', 'skipDue=100']) {
      const res = await as(ada, 'GET', `/api/groups/${groupId}/find-a-time?${q}`);
      expect(res.statusCode).toBe(400);
      expect([MSG.findTime.badLength, MSG.findTime.badSkip]).toContain(res.json().error.message);
    }
    const withFriend = await as(ada, 'GET', `/api/friends/${cy.id}/find-a-time?length=60`);
    expect(withFriend.statusCode).toBe(200);
    // Cy has no week yet: nobody is free with Ada, so nothing is proposed, and Ada alone shows as 1.
    expect(withFriend.json<FindATimeResult>().slots.every((s) => s.freeCount >= 1)).toBe(true);
    expect(Math.max(...withFriend.json<FindATimeResult>().counts)).toBe(1);
  });

  it('lets the student mark an imported block free (the override layer), kept across re-imports', async () => {
    const before = (await as(bob, 'GET', '/api/schedule')).json<MySchedule>();
    const seriesKey = before.busy[0]!.seriesKey;
    const unknown = await as(bob, 'PUT', '/api/schedule/overrides', { key: 'nope', free: true });
    expect([unknown.statusCode, unknown.json().error.message]).toEqual([400, MSG.schedule.unknownBlock]);
    const freed = (await as(bob, 'PUT', '/api/schedule/overrides', { key: seriesKey, free: true })).json<MySchedule>();
    expect(freed.busy.every((b) => b.overridden)).toBe(true);
    const found = (await as(ada, 'GET', `/api/groups/${groupId}/find-a-time?length=30`)).json<FindATimeResult>();
    const seminar = Math.floor(Date.now() / DAY_MS) * DAY_MS + DAY_MS + 10 * 3_600_000;
    expect(found.counts[(seminar - Date.parse(found.windowStart)) / 1_800_000]).toBe(2);
    await as(bob, 'POST', '/api/schedule/import/file', { fileName: 'again.ics', content: seminarCalendar('Seminar') });
    expect((await as(bob, 'GET', '/api/schedule')).json<MySchedule>().busy.every((b) => b.overridden)).toBe(true);
    await as(bob, 'PUT', '/api/schedule/overrides', { key: seriesKey, free: false });
    expect((await as(bob, 'GET', '/api/schedule')).json<MySchedule>().busy.some((b) => b.overridden)).toBe(false);
  });

  it('re-reads an address daily; a failed re-read keeps the last schedule and tells why', async () => {
    let body = seminarCalendar('Lab', 'lab-1');
    const deps: FetchDeps = {
      resolve: async () => [{ address: '93.184.216.34', family: 4 }],
      get: async () => ({ status: 200, body: Readable.from([Buffer.from(body)]), close() {} }),
    };
    const scheduled: string[] = [];
    const imports = createScheduleImportService(t.app.ctx, async (id) => void scheduled.push(id));
    const first = await imports.fromUrl(cy.id, 'https://uni.example/cy.ics', { fetchDeps: deps });
    expect(first.import).toMatchObject({ kind: 'url', source: 'https://uni.example/cy.ics', events: 3 });
    expect(scheduled).toEqual([cy.id]);
    body = '<html>Sign in</html>';
    expect(await imports.reread(cy.id, { fetchDeps: deps })).toBe(true);
    const kept = (await as(cy, 'GET', '/api/schedule')).json<MySchedule>();
    expect(kept.import).toMatchObject({ events: 3, lastError: MSG.schedule.notIcal });
    expect(kept.busy.map((b) => b.title)).toEqual(['Lab']);
    body = seminarCalendar('Lab moved', 'lab-1');
    await imports.reread(cy.id, { fetchDeps: deps });
    const fresh = (await as(cy, 'GET', '/api/schedule')).json<MySchedule>();
    expect(fresh.import.lastError).toBeNull();
    expect(fresh.busy[0]!.title).toBe('Lab moved');
    await imports.remove(cy.id);
    expect(await imports.reread(cy.id, { fetchDeps: deps })).toBe(false);
  });
});
