import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import nodeIcal, { type VEvent } from 'node-ical';
import type { CalendarFeedResponse } from '@studybuddy/shared/calendar';
import type { MessagePage } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { linkedStudySession, wallTimeIn, type StudySession } from '@studybuddy/shared/study-sessions';
import { jobs, studySessions } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { friends, history } from '../chat/chat.test-kit.ts';
import { sendReminder } from './session-notices.ts';

let t: TestApp;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;
let eve: TestUser;
let groupId: string;
const group = () => ({ kind: 'group' as const, id: groupId });

async function call(user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: { cookie: user.cookie },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

/** A wall-clock time `days` ahead in a zone (at `hh:mm`). */
function ahead(days: number, time = '14:00', zone = 'Europe/Berlin'): string {
  return `${wallTimeIn(new Date(Date.now() + days * 86_400_000), zone).slice(0, 10)}T${time}`;
}

const plan = (over: Record<string, unknown> = {}) => ({
  conversation: group(),
  title: 'Exam review',
  course: 'CS 31',
  start: ahead(3),
  timeZone: 'Europe/Berlin',
  minutes: 120,
  online: false,
  place: 'Library 2.14',
  ...over,
});

async function create(user: TestUser, over: Record<string, unknown> = {}): Promise<StudySession> {
  const res = await call(user, 'POST', '/api/study-sessions', plan(over));
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as StudySession;
}

const count = async () => (await t.app.ctx.db.select().from(studySessions)).length;

async function feedOf(user: TestUser): Promise<VEvent[]> {
  const { url } = (await call(user, 'POST', '/api/calendar/feed')).json() as CalendarFeedResponse;
  const res = await t.app.inject({ method: 'GET', url: new URL(url!).pathname });
  expect(res.statusCode).toBe(200);
  return Object.values(nodeIcal.sync.parseICS(res.body)).filter((c): c is VEvent => c?.type === 'VEVENT');
}
async function feedText(user: TestUser): Promise<string> {
  const { url } = (await call(user, 'GET', '/api/calendar/feed')).json() as CalendarFeedResponse;
  return (await t.app.inject({ method: 'GET', url: new URL(url!).pathname })).body;
}

beforeAll(async () => {
  t = await createTestApp();
  [ada, bob, cy] = await friends(t.app, 3, ['Ada', 'Bob', 'Cy']);
  eve = await createUser(t.app, { name: 'Eve' });
  const res = await call(ada, 'POST', '/api/groups', { name: 'Algorithms', memberIds: [bob.id] });
  groupId = res.json().id;
});
afterAll(() => t.close());

describe('planning a study session', () => {
  it('refuses a time in the past, longer than 8 hours, a skipped hour and bad fields, and writes nothing', async () => {
    const before = await count();
    for (const [over, message] of [
      [{ start: ahead(-1) }, MSG.studySessions.inPast],
      [{ minutes: 481 }, MSG.studySessions.tooLong],
      [{ minutes: 10 }, MSG.studySessions.tooShort],
      [{ start: '2027-03-28T02:30' }, MSG.studySessions.noSuchTime('2027-03-28 02:30', 'Europe/Berlin')],
      [{ start: 'tomorrow' }, MSG.studySessions.badStart],
      [{ title: '  ' }, MSG.studySessions.titleRequired],
      [{ title: 'x'.repeat(101) }, MSG.studySessions.titleTooLong],
      [{ place: '' }, MSG.studySessions.placeRequired],
      [{ reminderMinutes: -5 }, MSG.studySessions.badReminder],
      [{ focusMinutes: 1 }, MSG.studySessions.badCycle],
      [{ timeZone: 'Mars/Olympus' }, MSG.lms.badTimeZone],
    ] as const) {
      const res = await call(ada, 'POST', '/api/study-sessions', plan(over));
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it('refuses a group the student is not in, and a chat with someone who is not a friend', async () => {
    const before = await count();
    const notMember = await call(cy, 'POST', '/api/study-sessions', plan());
    expect(notMember.statusCode).toBe(403);
    expect(notMember.json().error.message).toBe(MSG.studySessions.notInConversation);
    const stranger = await call(
      eve,
      'POST',
      '/api/study-sessions',
      plan({ conversation: { kind: 'chat', id: [eve.id, ada.id].sort().join('_') } }),
    );
    expect(stranger.statusCode).toBe(403);
    expect(await count()).toBe(before);
    // Outsiders cannot see, answer or list it either.
    const s = await create(ada);
    expect((await call(cy, 'GET', `/api/study-sessions/${s.id}`)).statusCode).toBe(404);
    expect((await call(cy, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'going' })).statusCode).toBe(404);
    expect((await call(cy, 'GET', `/api/study-sessions?kind=group&id=${groupId}`)).statusCode).toBe(403);
    expect((await call(cy, 'GET', `/api/study-sessions/${s.id}/room`)).statusCode).toBe(404);
  });

  it('plans one in two friends’ chat and by hand in a group, posting its card to the conversation', async () => {
    const inChat = await create(ada, {
      conversation: { kind: 'chat', id: [ada.id, cy.id].sort().join('_') },
      online: true,
      place: '',
    });
    expect(inChat).toMatchObject({ online: true, place: '', conversationName: 'Cy', myAnswer: 'going' });
    const s = await create(ada, { title: 'Graphs' });
    expect(s).toMatchObject({ title: 'Graphs', course: 'CS 31', minutes: 120, status: 'scheduled', sequence: 0 });
    expect(s.createdBy).toEqual({ id: ada.id, name: 'Ada' });
    expect(s.conversationName).toBe('Algorithms');
    const page = (await history(t.app, bob, group())).json() as MessagePage;
    const card = page.messages.find((m) => linkedStudySession(m.content) === s.id);
    expect(card?.content).toContain('📅 Study session: Graphs');
    expect(card?.senderId).toBe(ada.id);
  });

  it('only its planner changes or cancels it; answers are Going, Maybe or Can’t', async () => {
    const s = await create(ada);
    const put = await call(bob, 'PUT', `/api/study-sessions/${s.id}`, plan({ title: 'Mine now' }));
    expect(put.statusCode).toBe(403);
    expect(put.json().error.message).toBe(MSG.studySessions.onlyCreator);
    expect((await call(bob, 'POST', `/api/study-sessions/${s.id}/cancel`, {})).statusCode).toBe(403);
    expect((await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'sure' })).statusCode).toBe(400);
    const answered = (await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'maybe' })).json();
    expect(answered.myAnswer).toBe('maybe');
    expect(answered.rsvps).toEqual([
      { userId: ada.id, name: 'Ada', answer: 'going' },
      { userId: bob.id, name: 'Bob', answer: 'maybe' },
    ]);
    const changed = await call(ada, 'PUT', `/api/study-sessions/${s.id}`, plan({ minutes: 60, start: ahead(-2) }));
    expect(changed.json().error.message).toBe(MSG.studySessions.inPast);
    const toUsers = vi.spyOn(t.app.ctx.realtime, 'toUsers');
    const cancelled = (await call(ada, 'POST', `/api/study-sessions/${s.id}/cancel`, {})).json();
    // Every member's open tabs hear of it (their cards and calendars load it again).
    expect(toUsers).toHaveBeenCalledWith(expect.arrayContaining([ada.id, bob.id]), {
      type: 'studySession.changed',
      sessionId: s.id,
      conversation: group(),
    });
    toUsers.mockRestore();
    expect(cancelled).toMatchObject({ status: 'cancelled', sequence: 1 });
    const late = await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'going' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.message).toBe(MSG.studySessions.cancelled);
    const page = (await history(t.app, bob, group())).json() as MessagePage;
    expect(page.messages.at(-1)?.content).toContain('📅 Study session cancelled: Exam review');
  });
});

describe('time zones and daylight-saving time', () => {
  it('keeps the wall-clock time it was planned for, in the planner’s zone and each attendee’s', async () => {
    // Planned in November (Berlin on CET, UTC+1) for 30 March 2027, after the clocks go forward (CEST, UTC+2) and
    // after New York's change (EDT): 14:00 in Berlin is 12:00 UTC, not 13:00, and 08:00 in New York.
    const s = await create(ada, { start: '2027-03-30T14:00', minutes: 90 });
    expect(s.start).toBe('2027-03-30T12:00:00.000Z');
    expect(s.end).toBe('2027-03-30T13:30:00.000Z');
    expect(wallTimeIn(s.start, 'Europe/Berlin')).toBe('2027-03-30T14:00');
    expect(wallTimeIn(s.start, 'America/New_York')).toBe('2027-03-30T08:00');
    // Before the change the same wall-clock time is an hour later in UTC.
    const before = await create(ada, { start: '2027-03-25T14:00', minutes: 90 });
    expect(before.start).toBe('2027-03-25T13:00:00.000Z');
    // Moved across the change by its planner: the new date's offset applies.
    const moved = (
      await call(ada, 'PUT', `/api/study-sessions/${before.id}`, plan({ start: '2027-04-01T14:00', minutes: 90 }))
    ).json();
    expect(moved.start).toBe('2027-04-01T12:00:00.000Z');
    // A planner in New York planning across the US change (14 March 2027): 18:00 EDT is 22:00 UTC.
    const ny = await create(ada, { start: '2027-03-15T18:00', timeZone: 'America/New_York' });
    expect(ny.start).toBe('2027-03-15T22:00:00.000Z');
    // A session over the night the clocks go forward lasts its real minutes; the calendar keeps the zone.
    const overnight = await create(ada, { start: '2027-03-28T01:30', minutes: 120 });
    expect(overnight.start).toBe('2027-03-28T00:30:00.000Z');
    expect(wallTimeIn(overnight.end, 'Europe/Berlin')).toBe('2027-03-28T04:30');
    const ics = await feedText(ada).catch(async () => {
      await call(ada, 'POST', '/api/calendar/feed');
      return feedText(ada);
    });
    expect(ics).toContain('DTSTART;TZID=Europe/Berlin:20270330T140000');
    expect(ics).toContain('DTSTART;TZID=America/New_York:20270315T180000');
  });
});

describe('calendar feeds', () => {
  it('puts a session in every attendee’s feed, updates it on change and marks it cancelled', async () => {
    const s = await create(ada, { title: 'Feed check', start: ahead(5, '10:00') });
    const uid = `study-session-${s.id}@studybuddy`;
    expect((await feedOf(ada)).find((e) => e.uid === uid)).toMatchObject({
      summary: 'Feed check',
      location: 'Library 2.14',
    });
    expect((await feedOf(bob)).some((e) => e.uid === uid)).toBe(false);
    await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'going' });
    const bobs = (await feedOf(bob)).find((e) => e.uid === uid)!;
    expect(new Date(bobs.start).toISOString()).toBe(s.start);
    expect(new Date(bobs.end!).toISOString()).toBe(s.end);
    await call(
      ada,
      'PUT',
      `/api/study-sessions/${s.id}`,
      plan({ title: 'Feed check 2', start: ahead(5, '10:00'), online: true, place: '' }),
    );
    expect(await feedText(bob)).toMatch(/SEQUENCE:1[\s\S]*SUMMARY:Feed check 2|SUMMARY:Feed check 2[\s\S]*SEQUENCE:1/);
    expect((await feedOf(bob)).find((e) => e.uid === uid)).toMatchObject({
      summary: 'Feed check 2',
      location: 'Online',
    });
    await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'cant' });
    expect((await feedOf(bob)).some((e) => e.uid === uid)).toBe(false);
    await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'maybe' });
    await call(ada, 'POST', `/api/study-sessions/${s.id}/cancel`, {});
    for (const user of [ada, bob]) {
      const e = (await feedOf(user)).find((x) => x.uid === uid)!;
      expect(e.status).toBe('CANCELLED');
      expect(String(e.sequence)).toBe('2');
    }
    const single = await call(bob, 'GET', `/api/study-sessions/${s.id}/ics`);
    expect(single.headers['content-type']).toContain('text/calendar');
    expect(single.body).toContain('STATUS:CANCELLED');
  });
});

describe('reminders', () => {
  it('queues a reminder 15 minutes before (configurable), for Going and Maybe only, skipped once changed', async () => {
    const s = await create(ada, { start: ahead(2, '09:00'), reminderMinutes: 30 });
    const [job] = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `study-session.reminder:${s.id}:0`));
    expect(job?.runAt.toISOString()).toBe(new Date(Date.parse(s.start) - 30 * 60_000).toISOString());
    await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'maybe' });
    expect((await call(cy, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'going' })).statusCode).toBe(404);
    const toUsers = vi.spyOn(t.app.ctx.realtime, 'toUsers');
    const at = new Date(Date.parse(s.start) - 15 * 60_000);
    expect((await sendReminder(t.app.ctx, { sessionId: s.id, sequence: 0 }, at)).sort()).toEqual(
      [ada.id, bob.id].sort(),
    );
    expect(toUsers).toHaveBeenCalledWith(expect.arrayContaining([ada.id, bob.id]), {
      type: 'studySession.reminder',
      sessionId: s.id,
      title: MSG.studySessions.reminderTitle('Exam review'),
      body: MSG.studySessions.reminderBody(15, 'Library 2.14'),
    });
    toUsers.mockRestore();
    await call(bob, 'PUT', `/api/study-sessions/${s.id}/rsvp`, { answer: 'cant' });
    expect(await sendReminder(t.app.ctx, { sessionId: s.id, sequence: 0 }, at)).toEqual([ada.id]);
    await call(ada, 'PUT', `/api/study-sessions/${s.id}`, plan({ start: ahead(2, '11:00') }));
    expect(await sendReminder(t.app.ctx, { sessionId: s.id, sequence: 0 }, at)).toEqual([]);
    const [next] = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `study-session.reminder:${s.id}:1`));
    // Moved two hours later, with the default reminder: 15 minutes before the new start.
    expect(next?.runAt.getTime()).toBe(Date.parse(s.start) + 2 * 3_600_000 - 15 * 60_000);
  });
});
