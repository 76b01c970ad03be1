import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@studybuddy/shared/chat';
import { LIMITS } from '@studybuddy/shared/limits';
import {
  REALTIME_TIMING,
  WS_CLOSE_QUOTA,
  WS_CLOSE_SIGNED_OUT,
  type RealtimeEvent,
  type SinceResult,
} from '@studybuddy/shared/realtime';
import { FakeWebSocket } from '../test/fake-websocket.ts';
import { RealtimeClient } from './realtime.ts';

const created = (cursor: number): RealtimeEvent => ({
  type: 'message.created',
  message: {
    id: `m${cursor}`,
    cursor,
    conversation: { kind: 'chat', id: 'a_b' },
    senderId: 'b',
    senderName: 'B',
    type: 'text',
    content: 'hi',
    createdAt: new Date(0).toISOString(),
  } satisfies ChatMessage,
});

let client: RealtimeClient;
let release: () => void;
/** Cursors of the message.created events the handlers got, and each resync's `full`. */
let seen: number[];
let resyncs: boolean[];

/** With Math.random at 0, a reconnect waits half its back-off step: 250 ms, 500 ms, 1 s, … 15 s. */
const delay = (attempt: number) =>
  Math.min(REALTIME_TIMING.backoffStartMs * 2 ** attempt, REALTIME_TIMING.backoffMaxMs) / 2;

/** Settles promise chains and the sockets' close events without moving the clock. */
const settle = () => vi.advanceTimersByTimeAsync(0);

function start() {
  client = new RealtimeClient();
  seen = [];
  resyncs = [];
  client.on('message.created', (e) => seen.push(e.message.cursor));
  client.onResync((full) => resyncs.push(full));
  release = client.acquire('me');
}

/** Opens the latest socket the way the server does: accepted, then hello with the newest cursor. */
function connect(cursor: number) {
  FakeWebSocket.last.accept();
  FakeWebSocket.last.receive({ type: 'hello', cursor });
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0);
  FakeWebSocket.all = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.reject(new TypeError('offline'))),
  );
});

afterEach(() => {
  release();
  vi.runOnlyPendingTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('real-time client', () => {
  it('opens one socket on the first hold, is live after hello, and has the screens refetch once', () => {
    start();
    const second = client.acquire('me');
    expect(FakeWebSocket.all.map((s) => s.url)).toEqual(['ws://localhost:3000/api/ws']);
    expect(client.status).toBe('connecting');
    connect(10);
    expect(client.status).toBe('open');
    // What was fetched before the socket opened may be stale: one full resync.
    expect(resyncs).toEqual([true]);
    second();
  });

  it('has the screens refetch once even when a live event comes before the first hello', () => {
    start();
    FakeWebSocket.last.accept();
    // The server subscribes the socket before it reads the cursor for hello: an event can arrive first.
    FakeWebSocket.last.receive({ type: 'event', event: created(11) });
    FakeWebSocket.last.receive({ type: 'hello', cursor: 10 });
    expect(seen).toEqual([11]);
    expect(resyncs).toEqual([true]);
    FakeWebSocket.last.receive({ type: 'hello', cursor: 12 });
    expect(resyncs).toEqual([true]);
  });

  it('reconnects after a drop naming the last cursor, subscribes again, and applies what it missed', async () => {
    start();
    client.subscribe('conversation:chat:a_b');
    connect(10);
    expect(FakeWebSocket.last.sent).toEqual([{ op: 'subscribe', topic: 'conversation:chat:a_b' }]);
    FakeWebSocket.last.receive({ type: 'event', event: created(11) });
    expect(seen).toEqual([11]);

    FakeWebSocket.last.drop();
    expect(client.status).toBe('polling');
    await vi.advanceTimersByTimeAsync(delay(0) - 1);
    expect(FakeWebSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeWebSocket.all).toHaveLength(2);
    const again = FakeWebSocket.last;
    expect(again.url).toBe('ws://localhost:3000/api/ws?cursor=11');

    again.accept();
    expect(again.sent).toEqual([{ op: 'subscribe', topic: 'conversation:chat:a_b' }]);
    again.receive({ type: 'hello', cursor: 14 });
    again.receive({ type: 'event', event: created(12) });
    again.receive({ type: 'event', event: created(14) });
    again.receive({ type: 'resync.done', cursor: 14, truncated: false });
    expect(seen).toEqual([11, 12, 14]);
    expect(resyncs).toEqual([true, false]);
    expect(client.status).toBe('open');

    // The next drop resumes from 14; a resync that had to skip messages asks for a full refetch.
    again.drop();
    await vi.advanceTimersByTimeAsync(delay(0));
    expect(FakeWebSocket.last.url).toBe('ws://localhost:3000/api/ws?cursor=14');
    FakeWebSocket.last.accept();
    FakeWebSocket.last.receive({ type: 'hello', cursor: 900 });
    FakeWebSocket.last.receive({ type: 'resync.done', cursor: 900, truncated: true });
    expect(resyncs).toEqual([true, false, true]);
  });

  it('waits longer after each failed try, and starts over once the server answers', async () => {
    start();
    const times: number[] = [];
    const t0 = Date.now();
    for (let attempt = 0; attempt < 5; attempt++) {
      FakeWebSocket.last.drop();
      const before = FakeWebSocket.all.length;
      while (FakeWebSocket.all.length === before) await vi.advanceTimersByTimeAsync(50);
      times.push(Date.now() - t0);
    }
    // 250, +500, +1000, +2000, +4000 ms (each within the 50 ms steps of this loop).
    const gaps = times.map((t, i) => t - (times[i - 1] ?? 0));
    expect(gaps.map((g, i) => g >= delay(i) && g < delay(i) + 50)).toEqual([true, true, true, true, true]);

    connect(1);
    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(delay(0));
    expect(FakeWebSocket.all).toHaveLength(7);
  });

  it('waits its longest back-off when refused for having too many sockets open', async () => {
    start();
    FakeWebSocket.last.drop(WS_CLOSE_QUOTA);
    await vi.advanceTimersByTimeAsync(REALTIME_TIMING.backoffMaxMs / 2 - 1);
    expect(FakeWebSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeWebSocket.all).toHaveLength(2);
  });

  it('tells the app at once when the server closes the socket because the session ended', async () => {
    start();
    const signedOut = vi.fn();
    client.onSignedOut(signedOut);
    connect(1);
    FakeWebSocket.last.drop(WS_CLOSE_QUOTA);
    await settle();
    expect(signedOut).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(REALTIME_TIMING.backoffMaxMs);
    connect(1);
    FakeWebSocket.last.drop(WS_CLOSE_SIGNED_OUT);
    await settle();
    expect(signedOut).toHaveBeenCalledTimes(1);
  });

  it('polls every 5 s while the socket is down, applying missed events, and stops once it is back', async () => {
    start();
    connect(10);
    const since: SinceResult = { events: [created(11), created(12)], cursor: 12, truncated: false };
    const fetchMock = vi.fn((path: string) => {
      void path;
      return Promise.resolve(new Response(JSON.stringify(since), { status: 200 }));
    });
    vi.stubGlobal('fetch', fetchMock);
    FakeWebSocket.last.drop();

    await vi.advanceTimersByTimeAsync(LIMITS.unreadPollMs);
    expect(fetchMock.mock.calls.map(([path]) => path)).toEqual(['/api/realtime/since?cursor=10']);
    expect(seen).toEqual([11, 12]);
    expect(resyncs).toEqual([true, false]);
    expect(client.status).toBe('polling');

    // The try made before the poll fails; the next one names the cursor the poll reached.
    expect(FakeWebSocket.last.url).toBe('ws://localhost:3000/api/ws?cursor=10');
    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(delay(1));
    const socket = FakeWebSocket.last;
    expect(socket.url).toBe('ws://localhost:3000/api/ws?cursor=12');
    socket.accept();
    socket.receive({ type: 'hello', cursor: 12 });
    const polls = fetchMock.mock.calls.length;
    await vi.advanceTimersByTimeAsync(LIMITS.unreadPollMs * 3);
    expect(fetchMock.mock.calls.length).toBe(polls);
    expect(client.status).toBe('open');
  });

  it('answers pings, and resyncs from its cursor when the server asks', () => {
    start();
    connect(10);
    FakeWebSocket.last.receive({ type: 'ping' });
    FakeWebSocket.last.receive({ type: 'resync.required' });
    expect(FakeWebSocket.last.sent).toEqual([{ op: 'pong' }, { op: 'resync', cursor: 10 }]);
  });

  it('closes a connection that has been silent for 2.5 ping intervals, and reconnects', async () => {
    start();
    connect(10);
    await vi.advanceTimersByTimeAsync(REALTIME_TIMING.pingMs * 2);
    expect(FakeWebSocket.last.closedByApp).toBe(false);
    await vi.advanceTimersByTimeAsync(REALTIME_TIMING.pingMs);
    expect(FakeWebSocket.all[0]!.closedByApp).toBe(true);
    await vi.advanceTimersByTimeAsync(delay(0));
    expect(FakeWebSocket.all).toHaveLength(2);
    expect(FakeWebSocket.last.url).toMatch(/\?cursor=10$/);
  });

  it('keeps the socket through a quick release and hold by the same user, and closes it a second after the last', async () => {
    start();
    connect(10);
    release();
    await vi.advanceTimersByTimeAsync(500);
    release = client.acquire('me');
    await vi.advanceTimersByTimeAsync(2000);
    expect(FakeWebSocket.all).toHaveLength(1);
    expect(client.status).toBe('open');

    release();
    await vi.advanceTimersByTimeAsync(999);
    expect(client.status).toBe('open');
    await vi.advanceTimersByTimeAsync(1);
    expect(client.status).toBe('idle');
    expect(FakeWebSocket.last.closedByApp).toBe(true);
    // Closed on purpose: no reconnect.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeWebSocket.all).toHaveLength(1);
  });

  it('starts afresh (no cursor) for another user of the tab', async () => {
    start();
    connect(10);
    release();
    release = client.acquire('someone-else');
    await settle();
    expect(FakeWebSocket.all).toHaveLength(2);
    expect(FakeWebSocket.all[0]!.closedByApp).toBe(true);
    expect(FakeWebSocket.last.url).toBe('ws://localhost:3000/api/ws');
  });

  it('reconnects at once when the browser comes back online', async () => {
    start();
    connect(10);
    FakeWebSocket.last.drop();
    await vi.advanceTimersByTimeAsync(delay(0));
    FakeWebSocket.last.drop();
    expect(FakeWebSocket.all).toHaveLength(2);
    window.dispatchEvent(new Event('online'));
    expect(FakeWebSocket.all).toHaveLength(3);
  });

  it('still calls the other handlers when one throws', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    start();
    client.on('message.created', () => {
      throw new Error('broken handler');
    });
    const after: number[] = [];
    client.on('message.created', (e) => after.push(e.message.cursor));
    connect(10);
    FakeWebSocket.last.receive({ type: 'event', event: created(11) });
    expect(seen).toEqual([11]);
    expect(after).toEqual([11]);
    expect(error).toHaveBeenCalledOnce();
  });

  it('sends a message over the socket: the ack resolves it, a refusal rejects with its text, a drop with status 0', async () => {
    start();
    const ref = { kind: 'chat', id: 'a_me' } as const;
    const input = (id: string) => ({ id, type: 'text', content: 'hi' }) as const;
    // No open socket yet: not sent, worth sending again.
    await expect(client.sendMessage(ref, input('m0'))).rejects.toMatchObject({ status: 0 });
    connect(10);
    const sent = client.sendMessage(ref, input('m1'));
    expect(FakeWebSocket.last.sent.at(-1)).toEqual({ op: 'send', conversation: ref, message: input('m1') });
    const message = { ...input('m1'), cursor: 11, conversation: ref, senderId: 'me', senderName: 'Me' } as ChatMessage;
    FakeWebSocket.last.receive({ type: 'ack', ref: 'm1', message, created: true });
    await expect(sent).resolves.toEqual({ message, created: true });

    const refused = client.sendMessage(ref, input('m2'));
    FakeWebSocket.last.receive({ type: 'error', ref: 'm2', status: 403, code: 'forbidden', message: 'Not friends' });
    await expect(refused).rejects.toMatchObject({ status: 403, code: 'forbidden', message: 'Not friends' });

    const lost = client.sendMessage(ref, input('m3'));
    FakeWebSocket.last.drop();
    await expect(lost).rejects.toMatchObject({ status: 0 });
  });
});
