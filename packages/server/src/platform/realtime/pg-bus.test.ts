import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import type { RealtimeEvent } from '@studybuddy/shared/realtime';
import type { Envelope, EventBus } from './event-bus.ts';
import { createPgBus } from './pg-bus.ts';
import { startCutProxy } from '../../test/tcp-cut-proxy.ts';

const url = process.env.TEST_DATABASE_URL;
const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

const event = (i: number, name = `n${i}`): RealtimeEvent => ({
  type: 'typing',
  conversation: { kind: 'chat', id: 'a_b' },
  userId: String(i),
  name,
});

/** As `until`, on the real clock while the bus's timers are fake (vi.waitFor would move the fake clock on). */
const realSetTimeout = globalThis.setTimeout;
async function untilReal(check: () => boolean, what: string) {
  for (const deadline = performance.now() + 10_000; !check(); ) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => realSetTimeout(r, 10));
  }
}

async function until(check: () => boolean, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe.skipIf(!url)('PostgreSQL LISTEN/NOTIFY bus', () => {
  const open: EventBus[] = [];
  const channel = `rt_test_${randomBytes(4).toString('hex')}`;
  const bus = async (peersCheckMs?: number) => {
    const b = await createPgBus({ databaseUrl: url!, log: quiet, channel, peersCheckMs });
    open.push(b);
    const got: Envelope[] = [];
    b.subscribe((e) => got.push(e));
    return { b, got };
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((b) => b.close()));
  });

  it('delivers each envelope once on every instance, in order, the publisher’s own at once', async () => {
    const one = await bus();
    const two = await bus();
    const sent = Array.from({ length: 300 }, (_, i) => ({ topics: [`user:${i % 7}`], event: event(i) }));
    for (const e of sent) one.b.publish(e);
    expect(one.got).toEqual(sent);
    await until(() => two.got.length >= sent.length);
    await new Promise((r) => setTimeout(r, 100));
    expect(two.got).toEqual(sent);
    two.b.publish({ topics: ['user:x'], event: event(999) });
    await until(() => one.got.length === 301);
    expect(one.got.at(-1)).toEqual({ topics: ['user:x'], event: event(999) });
  });

  it('sends a burst in few statements, identical payloads included (one transaction would fold them)', async () => {
    const one = await bus();
    const two = await bus();
    const query = vi.spyOn(pg.Client.prototype, 'query');
    try {
      // 3 KB each: two fill a payload, so these four, published in one turn, make two identical payloads.
      const same = { topics: ['user:1'], event: event(1, 'x'.repeat(3000)) };
      const twins = [same, same, same, same];
      for (const e of twins) one.b.publish(e);
      await until(() => two.got.length >= twins.length);
      const small = Array.from({ length: 300 }, (_, i) => ({ topics: [`user:${i}`], event: event(i) }));
      for (const e of small) one.b.publish(e);
      await until(() => two.got.length >= twins.length + small.length);
      await new Promise((r) => setTimeout(r, 100));
      expect(two.got).toEqual([...twins, ...small]);
      const notifies = query.mock.calls.filter(([q]) => typeof q === 'string' && q.includes('pg_notify'));
      // The small ones fill 7 payloads: they went out in one statement, the twins in two.
      expect(notifies.length).toBe(3);
    } finally {
      query.mockRestore();
    }
  });

  it('sends no NOTIFY while alone; a joining instance hears everything from the moment it is up', async () => {
    const query = vi.spyOn(pg.Client.prototype, 'query');
    const notifies = () =>
      query.mock.calls.filter(([q, values]) => String(q).includes('unnest') && Array.isArray(values)).length;
    try {
      const one = await bus(20);
      await new Promise((r) => setTimeout(r, 150));
      one.b.publish({ topics: ['user:1'], event: event(1) });
      await new Promise((r) => setTimeout(r, 100));
      expect(one.got).toHaveLength(1);
      expect(notifies()).toBe(0);

      // Up means heard: the first envelope published after the second instance is built reaches it.
      const two = await bus(20);
      one.b.publish({ topics: ['user:2'], event: event(2) });
      await until(() => two.got.length === 1);
      expect(two.got).toEqual([{ topics: ['user:2'], event: event(2) }]);
      expect(notifies()).toBeGreaterThan(0);

      // Alone again once the other has gone.
      const [second] = open.splice(1);
      await second!.close();
      await new Promise((r) => setTimeout(r, 150));
      const before = notifies();
      one.b.publish({ topics: ['user:3'], event: event(3) });
      await new Promise((r) => setTimeout(r, 100));
      expect(notifies()).toBe(before);
      expect(one.got).toHaveLength(3);
    } finally {
      query.mockRestore();
    }
  });

  it('carries an envelope larger than a NOTIFY payload intact', async () => {
    const one = await bus();
    const two = await bus();
    const big = { topics: ['user:1'], event: event(1, 'Grüße 😀 '.repeat(5000)) };
    one.b.publish(big);
    await until(() => two.got.length === 1);
    expect(two.got[0]).toEqual(big);
  });

  it('reconnects after its connection is killed, reports the gap and delivers again', async () => {
    const one = await bus();
    const two = await bus();
    let gaps = 0;
    two.b.onGap(() => gaps++);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ pid: number }>(
        'select pid from pg_stat_activity where application_name = $1 order by backend_start desc limit 1',
        [`realtime:${channel}`],
      );
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    } finally {
      await admin.end();
    }
    await until(() => gaps === 1, 10_000);
    one.b.publish({ topics: ['user:1'], event: event(7) });
    two.b.publish({ topics: ['user:2'], event: event(8) });
    await until(() => two.got.some((e) => 'event' in e && e.event.type === 'typing' && e.event.userId === '7'), 10_000);
    await until(() => one.got.some((e) => 'event' in e && e.event.type === 'typing' && e.event.userId === '8'), 10_000);
  });

  it('tries again at least once a second while the database is away, so it is back within a second of it', async () => {
    const target = new URL(url!);
    const proxy = await startCutProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const failed: unknown[] = [];
    let gaps = 0;
    let lost = false;
    try {
      const via = new URL(url!);
      via.port = String(proxy.port);
      const b = await createPgBus({
        databaseUrl: via.toString(),
        log: {
          ...quiet,
          warn: (obj: unknown, msg?: string) => {
            if (obj === 'realtime: bus connection lost; reconnecting') lost = true;
            if (msg?.includes('reconnect failed')) failed.push(obj);
          },
        },
        channel,
      });
      open.push(b);
      b.onGap(() => gaps++);
      // The bus's timers on a clock of the test's own: the database stays away for as many attempts as it takes.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      await proxy.cut();
      await untilReal(() => lost, 'the bus to see its connection go');
      for (let attempt = 1; attempt <= 6; attempt++) {
        // One more attempt each second. Before: 250 ms doubling to 10 s, so the fourth came 3.75 s after the cut.
        await vi.advanceTimersByTimeAsync(1000);
        await untilReal(() => failed.length >= attempt, `attempt ${attempt} while away`);
      }
      await proxy.restore();
      await vi.advanceTimersByTimeAsync(1000);
      await untilReal(() => gaps === 1, 'the bus back within a second of the database');
    } finally {
      vi.useRealTimers();
      await proxy.close();
    }
  });
});
