import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { REALTIME_TIMING, userTopic, type ServerFrame } from '@studybuddy/shared/realtime';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { WsTestClient } from './ws-test-client.ts';

const isPing = (f: ServerFrame) => f.type === 'ping';
const pings = (c: WsTestClient) => c.frames.filter(isPing).length;

describe('socket heartbeat', () => {
  let t: TestApp;
  let base: string;
  let ada: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    // Only the ping timer's clock is fake: sockets and the database run in real time.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ada = await createUser(t.app, { name: 'Ada' });
    bob = await createUser(t.app, { name: 'Bob' });
  });
  afterAll(async () => {
    await t.close();
    vi.useRealTimers();
  });

  it('pings each socket once per interval with one JSON frame, and drops a socket that never answers', async () => {
    const answering = await WsTestClient.connect(base, ada.cookie);
    const silent = await WsTestClient.connect(base, bob.cookie);
    let wsPings = 0;
    for (const c of [answering, silent]) c.ws.on('ping', () => wsPings++);
    await answering.waitFor((f) => f.type === 'hello');
    await silent.waitFor((f) => f.type === 'hello');

    vi.advanceTimersByTime(REALTIME_TIMING.pingMs);
    await answering.waitFor(isPing);
    await silent.waitFor(isPing);
    answering.send({ op: 'pong' });
    // Frames are handled in order: once this is answered, the pong was heard.
    answering.send({ op: 'subscribe', topic: userTopic(ada.id) });
    await answering.waitFor((f) => f.type === 'subscribed');

    vi.advanceTimersByTime(REALTIME_TIMING.pingMs);
    await answering.waitFor(isPing, 5000, answering.frames.findIndex(isPing) + 1);
    await vi.waitFor(() => expect(silent.ws.readyState).toBe(silent.ws.CLOSED), { timeout: 5000 });
    expect(answering.ws.readyState).toBe(answering.ws.OPEN);
    expect([pings(answering), pings(silent)]).toEqual([2, 1]);
    // No WebSocket-level ping besides: an idle socket costs one write and one read per interval.
    expect(wsPings).toBe(0);
    await answering.close();
  });
});
