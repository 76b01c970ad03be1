import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timerElapsed, wallTimeIn, type RoomState, type StudySession } from '@studybuddy/shared/study-sessions';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { oneOrTwoInstances, type OneOrTwoInstances } from '../../test/second-instance.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { friends } from '../chat/chat.test-kit.ts';

/**
 * Issue 27 point 4 across instances: the focus timer is kept in the database, so a late joiner on another instance
 * reads the same state, and each change reaches every member's sockets on every instance over the bus. With
 * TEST_DATABASE_URL a second instance shares the PostgreSQL database (LISTEN/NOTIFY); on PGlite, one instance
 * serves both sides (the in-memory bus).
 */
describe('the shared focus timer on two instances', () => {
  let one: TestApp;
  let instances: OneOrTwoInstances | undefined;
  let ada: TestUser;
  let bob: TestUser;
  let session: StudySession;
  let urlOne: string;
  let urlTwo: string;
  const sockets: WsTestClient[] = [];

  beforeAll(async () => {
    one = await createTestApp();
    instances = await oneOrTwoInstances(one);
    [urlOne, urlTwo] = instances.urls;
    [ada, bob] = await friends(one.app, 2, ['Ada', 'Bob']);
    const group = await one.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: ada.cookie },
      payload: { name: 'Timer', memberIds: [bob.id] },
    });
    const start = `${wallTimeIn(new Date(Date.now() + 86_400_000), 'UTC').slice(0, 10)}T10:00`;
    const res = await one.app.inject({
      method: 'POST',
      url: '/api/study-sessions',
      headers: { cookie: ada.cookie },
      payload: {
        conversation: { kind: 'group', id: group.json<{ id: string }>().id },
        title: 'Focus',
        start,
        timeZone: 'UTC',
        minutes: 120,
        online: true,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    session = res.json<StudySession>();
  });
  afterAll(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    await (instances?.close() ?? one?.close());
  });

  const onTwo = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    (instances?.two ?? one.app).inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const onOne = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    one.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });

  it('a late joiner on the other instance reads the same timer, and changes arrive over the bus', async () => {
    // The planner (instance one) starts the timer.
    const started = await onOne(ada.cookie, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'start' });
    expect(started.statusCode, started.body).toBe(200);
    const planned = started.json<RoomState>().timer;
    expect(planned.runningSince).not.toBeNull();

    // Bob joins late on instance two: the same state, so the same clock at any instant.
    const late = await onTwo(bob.cookie, 'GET', `/api/study-sessions/${session.id}/room`);
    expect(late.statusCode).toBe(200);
    const seen = late.json<RoomState>().timer;
    expect(seen).toEqual(planned);
    const at = Date.now();
    expect(timerElapsed(seen, at)).toBe(timerElapsed(planned, at));

    // Bob's socket is on instance two; Ada's second tab on instance one. The planner pauses on instance one.
    const bobSocket = await WsTestClient.connect(urlTwo, bob.cookie);
    const adaSocket = await WsTestClient.connect(urlOne, ada.cookie);
    sockets.push(bobSocket, adaSocket);
    await Promise.all([bobSocket, adaSocket].map((s) => s.waitFor((f) => f.type === 'hello')));
    const paused = await onOne(ada.cookie, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'pause' });
    expect(paused.statusCode).toBe(200);
    const pausedTimer = paused.json<RoomState>().timer;
    expect(pausedTimer.runningSince).toBeNull();
    const isPaused = (e: { room: RoomState }) => e.room.sessionId === session.id && e.room.timer.runningSince === null;
    const [toBob, toAda] = await Promise.all([
      bobSocket.waitForEvent('studySession.room', isPaused),
      adaSocket.waitForEvent('studySession.room', isPaused),
    ]);
    expect(toBob.room.timer).toEqual(pausedTimer);
    expect(toAda.room.timer).toEqual(pausedTimer);

    // A reload on instance two reads the paused state too (kept by the server, not by either instance).
    const reload = await onTwo(bob.cookie, 'GET', `/api/study-sessions/${session.id}/room`);
    expect(reload.json<RoomState>().timer).toEqual(pausedTimer);

    // And back: the planner resumes from instance two; the socket on instance one hears it.
    const resumed = await onTwo(ada.cookie, 'POST', `/api/study-sessions/${session.id}/timer`, { action: 'start' });
    expect(resumed.statusCode).toBe(200);
    const running = await adaSocket.waitForEvent(
      'studySession.room',
      (e) => e.room.sessionId === session.id && e.room.timer.runningSince !== null,
    );
    expect(running.room.timer).toEqual(resumed.json<RoomState>().timer);
    expect(running.room.timer.elapsedMs).toBe(pausedTimer.elapsedMs);
  });
});
