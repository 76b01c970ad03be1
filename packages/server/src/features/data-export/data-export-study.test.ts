import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API } from '@studybuddy/shared/account';
import { scheduleBusy, scheduleImports } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { friends } from '../chat/chat.test-kit.ts';

/** Issue 27 with issue 24 point 5: "Download my data" holds the student's schedule and study sessions. */
describe('download my data: schedule and study sessions', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  const call = (user: TestUser, method: 'POST' | 'GET' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: user.cookie }, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    [ada, bob] = await friends(t.app, 2, ['Ada Planner', 'Bob Attendee']);
    const cells = Array.from({ length: 336 }, (_, i) => (i >= 48 + 28 && i < 48 + 32 ? '1' : '0')).join('');
    expect((await call(ada, 'PUT', '/api/schedule/week', { timeZone: 'Europe/Berlin', cells })).statusCode).toBe(200);
    expect((await call(bob, 'PUT', '/api/schedule/week', { timeZone: 'UTC', cells })).statusCode).toBe(200);
    // An imported timetable as the import leaves it (the import itself is ics.test.ts's).
    await t.app.ctx.db.insert(scheduleImports).values({
      userId: ada.id,
      kind: 'file',
      source: 'timetable.ics',
      lastImportAt: new Date(),
      lastError: null,
    });
    await t.app.ctx.db.insert(scheduleBusy).values({
      userId: ada.id,
      key: 'lecture-1@test',
      seriesKey: 'lecture-1@test',
      title: 'ada-lecture-title',
      startsAt: new Date('2027-03-01T09:00:00Z'),
      endsAt: new Date('2027-03-01T10:30:00Z'),
    });
    const group = await call(ada, 'POST', '/api/groups', { name: 'Export Study', memberIds: [bob.id] });
    const groupId = group.json<{ id: string }>().id;
    const start = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const planned = await call(ada, 'POST', '/api/study-sessions', {
      conversation: { kind: 'group', id: groupId },
      title: 'ada-session-title',
      course: 'CS 31',
      start: `${start}T14:00`,
      timeZone: 'Europe/Berlin',
      minutes: 90,
      online: true,
      place: '',
    });
    expect(planned.statusCode, planned.body).toBe(201);
    const id = planned.json<{ id: string }>().id;
    expect((await call(bob, 'PUT', `/api/study-sessions/${id}/rsvp`, { answer: 'maybe' })).statusCode).toBe(200);
  });
  afterAll(() => t.close());

  async function zipOf(user: TestUser) {
    const asked = await call(user, 'POST', ACCOUNT_API.export, {});
    expect(asked.statusCode, asked.body).toBe(200);
    const res = await call(user, 'GET', asked.json<{ url: string }>().url);
    expect(res.statusCode).toBe(200);
    const zip = await JSZip.loadAsync(res.rawPayload);
    return async <T>(name: string) => JSON.parse(await zip.file(name)!.async('string')) as T;
  }

  it("holds the student's week, import with its busy times, and the sessions they planned or answered", async () => {
    const read = await zipOf(ada);
    const schedule = await read<{
      week: { timeZone: string; cells: string };
      import: { kind: string };
      busy: { title: string; start: string; markedFree: boolean }[];
    }>('schedule.json');
    expect(schedule.week.timeZone).toBe('Europe/Berlin');
    expect(schedule.week.cells).toMatch(/^[01]{336}$/);
    expect(schedule.import.kind).toBe('file');
    expect(schedule.busy).toEqual([
      {
        title: 'ada-lecture-title',
        start: '2027-03-01T09:00:00.000Z',
        end: '2027-03-01T10:30:00.000Z',
        markedFree: false,
      },
    ]);
    const sessions = await read<Record<string, unknown>[]>('study-sessions.json');
    expect(sessions).toEqual([
      expect.objectContaining({ title: 'ada-session-title', minutes: 90, plannedByYou: true, yourAnswer: 'going' }),
    ]);

    // Bob's: his answer to Ada's session, his own week, nothing of Ada's calendar.
    const bobs = await zipOf(bob);
    expect(await bobs('study-sessions.json')).toEqual([
      expect.objectContaining({ title: 'ada-session-title', plannedByYou: false, yourAnswer: 'maybe' }),
    ]);
    const bobSchedule = await bobs<{ week: { timeZone: string }; import: null; busy: unknown[] }>('schedule.json');
    expect(bobSchedule).toMatchObject({ week: { timeZone: 'UTC' }, import: null, busy: [] });
    expect(JSON.stringify(bobSchedule)).not.toContain('ada-lecture-title');
  });
});
