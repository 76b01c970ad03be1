// Issue 31 case 1: the database goes away under a running server (a restart, a failover, its backends ended) and
// comes back. The PostgreSQL leg only: PGlite lives in the server's own process and cannot go away.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import type { ServerFrame } from '@studybuddy/shared/realtime';
import { withTransaction } from '../db/transaction.ts';
import { chatRef, friends, markRead, post } from '../features/chat/chat.test-kit.ts';
import { startCutProxy, type CutProxy } from '../test/tcp-cut-proxy.ts';
import { createTestApp, freshPostgres, type TestApp } from '../test/test-app.ts';
import { knownError } from './errors.ts';
import { WsTestClient } from './realtime/ws-test-client.ts';

const base = process.env.TEST_DATABASE_URL;

async function untilReady(t: TestApp, timeoutMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const res = await t.app.inject({ url: '/api/health/ready' });
    if (res.statusCode === 200) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`not ready after ${timeoutMs} ms: ${res.body}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Ends every backend of `database` but the caller's (pg_terminate_backend); how many. */
async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>(
      `select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity
       where datname = $1 and pid <> pg_backend_pid()`,
      [database],
    );
    return Number(rows[0]!.n);
  } finally {
    await admin.end();
  }
}

const isError = (ref: string) => (f: ServerFrame) => f.type === 'error' && f.ref === ref;
const isAck = (ref: string) => (f: ServerFrame) => f.type === 'ack' && f.ref === ref;

describe.skipIf(!base)('the database away and back (issue 31 case 1)', () => {
  let t: TestApp | undefined;
  let proxy: CutProxy | undefined;
  let drop: (() => Promise<void>) | undefined;
  const sockets: WsTestClient[] = [];
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
    await t?.close();
    await proxy?.close();
    await drop?.();
    t = proxy = drop = undefined;
  });

  it('answers not-ready and refuses writes with a clear 503 while it is away, and is whole again once it is back', async () => {
    const db = (await freshPostgres())!;
    drop = db.drop;
    const direct = new URL(db.url);
    proxy = await startCutProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(db.url);
    viaProxy.port = String(proxy.port);
    t = await createTestApp({ DATABASE_URL: viaProxy.toString() });
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const [a, b] = await friends(t.app, 2);
    const ref = chatRef(a, b);
    const wsA = await WsTestClient.connect(address, a.cookie, { origin: t.config.publicUrl });
    const wsB = await WsTestClient.connect(address, b.cookie, { origin: t.config.publicUrl });
    sockets.push(wsA, wsB);
    await wsA.waitFor((f) => f.type === 'hello');
    await wsB.waitFor((f) => f.type === 'hello');

    await proxy.cut();
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ ready: false, database: { status: 'down' } });
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);

    // An HTTP write: a clear 503 the client may retry on, never a 500 or a stack.
    const refused = await markRead(t.app, a, ref);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      error: { code: 'database_unavailable', message: MSG.faults.databaseUnavailable },
    });
    expect(refused.headers['retry-after']).toBe('2');
    // A socket write: the same refusal, naming the message.
    const id = randomUUID();
    const send = { op: 'send', conversation: ref, message: { id, type: 'text', content: 'kept in the outbox' } };
    wsA.send(send);
    const error = await wsA.waitFor(isError(id));
    expect(error).toEqual({
      type: 'error',
      ref: id,
      status: 503,
      code: 'database_unavailable',
      message: MSG.faults.databaseUnavailable,
    });

    await proxy.restore();
    expect(await untilReady(t, 5000)).toBeLessThan(5000);
    // The bus reconnected: every socket is told to resync.
    await wsA.waitFor((f) => f.type === 'resync.required', 15_000);
    // The client sends the refused message again with the same id: stored once, delivered live.
    wsA.send(send);
    await wsA.waitFor(isAck(id));
    await wsB.waitForEvent('message.created', (e) => e.message.id === id);
    const written = await post(t.app, a, ref, { content: 'after' });
    expect(written.statusCode).toBe(201);
  });

  it('survives its backends ended twice, one in the middle of a transaction, and writes again at once', async () => {
    t = await createTestApp();
    const database = new URL(t.config.databaseUrl!).pathname.slice(1);
    const [a, b] = await friends(t.app, 2);
    const ref = chatRef(a, b);
    expect((await post(t.app, a, ref, { content: 'before' })).statusCode).toBe(201);

    // A transaction between two queries when its backend ends: nobody waits on that connection then.
    let resume!: () => void;
    const paused = new Promise<void>((r) => (resume = r));
    let begun!: () => void;
    const inside = new Promise<void>((r) => (begun = r));
    const held = withTransaction(t.app.ctx.db, async (tx) => {
      await tx.execute(sql`select 1`);
      begun();
      await paused;
      await tx.execute(sql`select 1`);
    });
    const failed = held.then(
      () => null,
      (err: unknown) => err,
    );
    await inside;
    expect(await terminateBackends(database)).toBeGreaterThan(0);
    // Time for the ended connection's error to arrive (it crashed the process when nobody listened).
    await new Promise((r) => setTimeout(r, 300));
    resume();
    const err = await failed;
    expect(err).not.toBeNull();
    expect(knownError(err)?.code).toBe('database_unavailable');

    await terminateBackends(database);
    await new Promise((r) => setTimeout(r, 300));
    expect(await untilReady(t, 5000)).toBeLessThan(5000);
    const after = await post(t.app, a, ref, { content: 'after' });
    expect(after.statusCode).toBe(201);
  });
});
