import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MessagePage } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { clockText, timerElapsed, timerPhase, wallTimeIn, type StudySession } from '@studybuddy/shared/study-sessions';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { friends, history } from '../chat/chat.test-kit.ts';
import { endSession, getRoom, report, setTimer } from './study-room.service.ts';

let t: TestApp;
let ada: TestUser;
let bob: TestUser;
let cy: TestUser;
let groupId: string;
let session: StudySession;

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
  t.app.inject({
    method,
    url,
    headers: { cookie: user.cookie },
    ...(body === undefined ? {} : { payload: body as object }),
  });

beforeAll(async () => {
  t = await createTestApp();
  [ada, bob, cy] = await friends(t.app, 3, ['Ada', 'Bob', 'Cy']);
  groupId = (await call(ada, 'POST', '/api/groups', { name: 'Algorithms', memberIds: [bob.id] })).json().id;
  const start = `${wallTimeIn(new Date(Date.now() + 2 * 86_400_000), 'UTC').slice(0, 10)}T10:00`;
  const res = await call(ada, 'POST', '/api/study-sessions', {
    conversation: { kind: 'group', id: groupId },
    title: 'Focus',
    start,
    timeZone: 'UTC',
    minutes: 120,
    online: true,
  });
  session = res.json();
});
afterAll(() => t.close());

describe('the focus timer’s arithmetic', () => {
  it('cycles 25 minutes of focus and 5 of break by default', () => {
    expect(timerPhase(0, 25, 5)).toEqual({ phase: 'focus', round: 1, remainingMs: 25 * 60_000 });
    expect(timerPhase(25 * 60_000 - 1, 25, 5)).toEqual({ phase: 'focus', round: 1, remainingMs: 1 });
    expect(timerPhase(25 * 60_000, 25, 5)).toEqual({ phase: 'break', round: 1, remainingMs: 5 * 60_000 });
    expect(timerPhase(30 * 60_000, 25, 5)).toEqual({ phase: 'focus', round: 2, remainingMs: 25 * 60_000 });
    expect(timerPhase(61 * 60_000, 50, 10)).toEqual({ phase: 'focus', round: 2, remainingMs: 49 * 60_000 });
    expect(clockText(25 * 60_000)).toBe('25:00');
    expect(clockText(59_001)).toBe('01:00');
    expect(clockText(-5)).toBe('00:00');
  });

  it('counts banked time plus the time since the last start', () => {
    expect(timerElapsed({ runningSince: null, elapsedMs: 5000 }, 1e12)).toBe(5000);
    expect(timerElapsed({ runningSince: new Date(1e12).toISOString(), elapsedMs: 5000 }, 1e12 + 7000)).toBe(12_000);
  });
});

describe('the room', () => {
  it('keeps one timer on the server: started and paused by the planner, the same for a late joiner', async () => {
    const t0 = new Date('2030-01-01T10:00:00Z').getTime();
    const at = (minutes: number) => new Date(t0 + minutes * 60_000);
    const ctx = t.app.ctx;
    const started = await setTimer(ctx, ada.id, session.id, 'start', at(0));
    expect(started.timer).toMatchObject({
      runningSince: at(0).toISOString(),
      elapsedMs: 0,
      focusMinutes: 25,
      breakMinutes: 5,
    });
    // Starting again changes nothing.
    expect((await setTimer(ctx, ada.id, session.id, 'start', at(3))).timer.runningSince).toBe(at(0).toISOString());
    const paused = await setTimer(ctx, ada.id, session.id, 'pause', at(10));
    expect(paused.timer).toMatchObject({ runningSince: null, elapsedMs: 10 * 60_000 });
    await setTimer(ctx, ada.id, session.id, 'start', at(20));
    // Bob opens the room at minute 30 (a late joiner), Cy's reload at minute 31: both compute the same time.
    const late = await getRoom(ctx, bob.id, session.id, at(30));
    const elapsed = timerElapsed(late.timer, at(30).getTime());
    expect(elapsed).toBe(20 * 60_000);
    expect(timerPhase(elapsed, 25, 5)).toEqual({ phase: 'focus', round: 1, remainingMs: 5 * 60_000 });
    const again = await getRoom(ctx, ada.id, session.id, at(31));
    expect(timerElapsed(again.timer, at(31).getTime())).toBe(21 * 60_000);
    // Only the planner drives it.
    const bobs = await call(bob, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'pause' });
    expect(bobs.statusCode).toBe(403);
    expect(bobs.json().error.message).toBe(MSG.studySessions.onlyCreatorTimer);
    expect((await call(cy, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'pause' })).statusCode).toBe(
      404,
    );
    expect((await call(ada, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'stop' })).statusCode).toBe(
      400,
    );
    await setTimer(ctx, ada.id, session.id, 'pause', at(32));
  });

  it('shows who is present with their goals; a student is gone 45 s after their last report', async () => {
    const ctx = t.app.ctx;
    const now = new Date();
    await report(ctx, ada.id, session.id, { goal: 'Chapter 4' }, now);
    const room = await report(ctx, bob.id, session.id, {}, now);
    expect(room.present).toEqual([
      { userId: ada.id, name: 'Ada', goal: 'Chapter 4', done: false },
      { userId: bob.id, name: 'Bob', goal: '', done: false },
    ]);
    const tooLong = await call(bob, 'POST', `/api/study-sessions/${session.id}/room/presence`, {
      goal: 'x'.repeat(201),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe(MSG.studySessions.goalTooLong);
    await report(ctx, ada.id, session.id, {}, new Date(now.getTime() + 40_000));
    const later = await getRoom(ctx, ada.id, session.id, new Date(now.getTime() + 46_000));
    expect(later.present.map((p) => p.name)).toEqual(['Ada']);
    expect((await call(bob, 'DELETE', `/api/study-sessions/${session.id}/room/presence`)).statusCode).toBe(204);
  });

  it('ends with a one-line recap per student, posted to the group; the room then refuses the timer', async () => {
    const ctx = t.app.ctx;
    await report(ctx, ada.id, session.id, { goal: 'Chapter 4', done: true });
    await report(ctx, bob.id, session.id, { goal: 'Problem set 3' });
    expect((await call(bob, 'POST', `/api/study-sessions/${session.id}/end`, {})).statusCode).toBe(403);
    const ended = await endSession(ctx, ada.id, session.id);
    expect(ended.status).toBe('ended');
    const page = (await history(t.app, bob, { kind: 'group', id: groupId })).json() as MessagePage;
    const recap = page.messages.at(-1)!.content.split('\n');
    expect(recap.slice(0, 3)).toEqual([
      MSG.studySessions.chatRecap('Focus'),
      MSG.studySessions.recapLine('Ada', 'Chapter 4', true),
      MSG.studySessions.recapLine('Bob', 'Problem set 3', false),
    ]);
    const again = await call(ada, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'start' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MSG.studySessions.ended);
  });
});
