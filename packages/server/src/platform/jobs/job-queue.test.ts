import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/connect.ts';
import { jobs } from '../../db/schema.ts';
import { builtEntry, serverRoot } from '../../test/built-entry.ts';
import { copyMigratedDatabase, createTestApp, type TestApp } from '../../test/test-app.ts';
import { backoffMs, createJobQueue, PermanentJobError, YIELD, type JobLog, type JobQueue } from './job-queue.ts';

const silent: JobLog = { info: () => {}, warn: () => {}, error: () => {} };

async function until<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('job queue', () => {
  let t: TestApp;
  const queues: JobQueue[] = [];
  const queue = (opts: Parameters<typeof createJobQueue>[2] = {}) => {
    const q = createJobQueue(t.app.ctx.database, silent, { pollMs: 20, backoffBaseMs: 40, ...opts });
    queues.push(q);
    return q;
  };
  const jobRow = async (id: string) => (await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
  });
  afterAll(async () => {
    await Promise.all(queues.map((q) => q.stop()));
    await t.close();
  });

  it('claims a job, runs it with its payload and marks it done', async () => {
    const q = queue();
    const seen: unknown[] = [];
    q.define<{ n: number }>({ kind: 'test.echo', handler: async (p, ctx) => void seen.push([p.n, ctx.attempt]) });
    await q.start();
    const id = (await q.enqueue('test.echo', { n: 7 }))!;
    await until(async () => (await jobRow(id)).status === 'done');
    expect(seen).toEqual([[7, 1]]);
    expect(await jobRow(id)).toMatchObject({ attempts: 1, lockedBy: null, lastError: null });
  });

  it('stops without sleeping a poll when stopped while it looks for a job', async () => {
    // A queue stopped right after its start is still claiming: it used to sleep a whole poll after that claim,
    // which made every app's close (and a graceful shutdown) wait the 5 s poll of the reminders' queue.
    const q = queue({ pollMs: 600_000 });
    await q.start();
    const stopped = q.stop().then(() => 'stopped');
    const limit = new Promise((resolve) => setTimeout(resolve, 60_000, 'still sleeping').unref());
    expect(await Promise.race([stopped, limit])).toBe('stopped');
  });

  it('keeps one active job per dedupe key', async () => {
    const q = queue();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    q.define({ kind: 'test.dedupe', handler: () => gate });
    const first = await q.enqueue('test.dedupe', {}, { dedupeKey: 'doc-1' });
    expect(first).toBeTruthy();
    expect(await q.enqueue('test.dedupe', {}, { dedupeKey: 'doc-1' })).toBeNull();
    await q.start();
    await until(async () => (await jobRow(first!)).status === 'running');
    expect(await q.enqueue('test.dedupe', {}, { dedupeKey: 'doc-1' })).toBeNull();
    release();
    await until(async () => (await jobRow(first!)).status === 'done');
    const again = await q.enqueue('test.dedupe', {}, { dedupeKey: 'doc-1' });
    expect(again).toBeTruthy();
    expect(again).not.toBe(first);
  });

  it('retries a failing job with growing back-off until it succeeds', async () => {
    const q = queue({ backoffBaseMs: 100 });
    const runs: number[] = [];
    q.define({
      kind: 'test.flaky',
      handler: async () => {
        runs.push(Date.now());
        if (runs.length < 3) throw new Error(`boom ${runs.length}`);
      },
    });
    await q.start();
    const id = (await q.enqueue('test.flaky', {}))!;
    await until(async () => (await jobRow(id)).status === 'done');
    expect(runs).toHaveLength(3);
    const [a, b, c] = runs as [number, number, number];
    expect(b - a).toBeGreaterThanOrEqual(80 - 5); // 100 ms ±20 %
    expect(c - b).toBeGreaterThanOrEqual(160 - 5); // 200 ms ±20 %
    expect(await jobRow(id)).toMatchObject({ attempts: 3, lastError: 'boom 2' });
  });

  it('fails for good after its attempts, or at once on a permanent error, calling onFailed once', async () => {
    const q = queue();
    const failed: string[] = [];
    let runs = 0;
    q.define({
      kind: 'test.broken',
      maxAttempts: 2,
      handler: async () => {
        runs++;
        throw new Error('still broken');
      },
      onFailed: async (_p, err) => void failed.push(err.message),
    });
    q.define({
      kind: 'test.corrupt',
      handler: async () => {
        throw new PermanentJobError('corrupt file');
      },
      onFailed: async (_p, err) => void failed.push(err.message),
    });
    await q.start();
    const broken = (await q.enqueue('test.broken', {}))!;
    const corrupt = (await q.enqueue('test.corrupt', {}))!;
    await until(async () => (await jobRow(broken)).status === 'failed' && (await jobRow(corrupt)).status === 'failed');
    expect(runs).toBe(2);
    expect((await jobRow(corrupt)).attempts).toBe(1);
    expect(failed.sort()).toEqual(['corrupt file', 'still broken']);
  });

  it('reclaims a running job whose worker stopped heart-beating once the lease runs out', async () => {
    const q = queue();
    const ran: number[] = [];
    q.define({ kind: 'test.orphan', handler: async (_p, ctx) => void ran.push(ctx.attempt) });
    await q.start(); // on PGlite, start() frees every running job: the orphan arrives after it
    const id = 'orphan-' + Date.now();
    await t.app.ctx.db.insert(jobs).values({
      id,
      kind: 'test.orphan',
      payload: {},
      status: 'running',
      attempts: 1,
      lockedBy: 'dead-worker',
      lockedUntil: new Date(Date.now() + 300),
    });
    q.wake();
    await new Promise((r) => setTimeout(r, 150));
    expect(ran).toEqual([]); // the lease still holds
    await until(async () => (await jobRow(id)).status === 'done');
    expect(ran).toEqual([2]);
  });

  it('runs each job exactly once with two workers sharing the table', async () => {
    const counts = new Map<number, number>();
    const define = (q: JobQueue) =>
      q.define<{ n: number }>({
        kind: 'test.shared',
        handler: async (p) => {
          await new Promise((r) => setTimeout(r, 5));
          counts.set(p.n, (counts.get(p.n) ?? 0) + 1);
        },
      });
    const a = queue({ concurrency: 2 });
    const b = queue({ concurrency: 2 });
    define(a);
    define(b);
    for (let n = 0; n < 30; n++) await a.enqueue('test.shared', { n });
    await Promise.all([a.start(), b.start()]);
    await until(async () => {
      const r = await t.app.ctx.db.execute(
        sql`select count(*)::int as n from jobs where kind = 'test.shared' and status <> 'done'`,
      );
      return (r as unknown as { rows: { n: number }[] }).rows[0]!.n === 0;
    });
    expect(counts.size).toBe(30);
    expect([...counts.values()].every((c) => c === 1)).toBe(true);
  });

  it('hands a running job back without counting the attempt when the queue stops', async () => {
    const q = queue();
    q.define({
      kind: 'test.long',
      handler: (_p, ctx) =>
        new Promise<void>((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))),
    });
    await q.start();
    const id = (await q.enqueue('test.long', {}))!;
    await until(async () => (await jobRow(id)).status === 'running');
    await q.stop();
    expect(await jobRow(id)).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null });
  });

  it("takes turns between owners: a second student is served before the first one's backlog is done", async () => {
    const q = queue();
    const order: string[] = [];
    q.define<{ tag: string }>({ kind: 'test.turns', handler: async (p) => void order.push(p.tag) });
    for (let n = 1; n <= 6; n++) await q.enqueue('test.turns', { tag: `a${n}` }, { owner: 'student-a' });
    await q.enqueue('test.turns', { tag: 'b1' }, { owner: 'student-b' });
    await q.enqueue('test.turns', { tag: 'b2' }, { owner: 'student-b' });
    await q.enqueue('test.turns', { tag: 'c1' }, { owner: 'student-c' });
    await q.start();
    await until(async () => order.length === 9);
    // Round-robin: oldest first within an owner, owners in turn (the one served least recently next).
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3', 'a4', 'a5', 'a6']);
  });

  it("lets a long job yield between slices so another owner's short job runs before it ends", async () => {
    const q = queue();
    const events: string[] = [];
    const progress = new Map<string, number>();
    let started!: () => void;
    const firstSlice = new Promise<void>((r) => (started = r));
    q.define<{ pages: number }>({
      kind: 'test.pages',
      async handler(p, ctx) {
        for (let page = (progress.get(ctx.id) ?? 0) + 1; page <= p.pages; page++) {
          await new Promise((r) => setTimeout(r, 10));
          progress.set(ctx.id, page); // saved progress, as a document job stores its pages
          events.push(`${ctx.owner}:${page}`);
          started();
          if (page < p.pages && (await ctx.othersWaiting())) return YIELD;
        }
      },
    });
    q.define({ kind: 'test.short', handler: async (_p, ctx) => void events.push(`${ctx.owner}:short`) });
    await q.start();
    const long = (await q.enqueue('test.pages', { pages: 40 }, { owner: 'a' }))!;
    await firstSlice;
    const short = (await q.enqueue('test.short', {}, { owner: 'b' }))!;
    await until(async () => (await jobRow(long)).status === 'done');
    expect((await jobRow(short)).status).toBe('done');
    const shortAt = events.indexOf('b:short');
    expect(shortAt).toBeGreaterThan(0);
    expect(shortAt).toBeLessThan(events.indexOf('a:40'));
    // Every page exactly once, in order, and yielding used no attempt.
    expect(events.filter((e) => e.startsWith('a:'))).toEqual(Array.from({ length: 40 }, (_, i) => `a:${i + 1}`));
    expect(await jobRow(long)).toMatchObject({ status: 'done', attempts: 1, owner: 'a' });
  });

  it('does not yield when nobody else waits', async () => {
    const q = queue();
    let yields = 0;
    q.define({
      kind: 'test.alone',
      async handler(_p, ctx) {
        if (await ctx.othersWaiting()) yields++;
      },
    });
    await q.enqueue('test.alone', {}, { owner: 'solo' });
    await q.enqueue('test.alone', {}, { owner: 'solo' });
    await q.start();
    await until(async () => {
      const r = await t.app.ctx.db.execute(
        sql`select count(*)::int as n from jobs where kind = 'test.alone' and status = 'done'`,
      );
      return (r as unknown as { rows: { n: number }[] }).rows[0]!.n === 2;
    });
    expect(yields).toBe(0);
  });

  it('grows the back-off exponentially up to the cap', () => {
    for (let i = 0; i < 20; i++) {
      expect(backoffMs(1, 1000, 60_000)).toBeGreaterThanOrEqual(800);
      expect(backoffMs(3, 1000, 60_000)).toBeGreaterThanOrEqual(3200);
      expect(backoffMs(3, 1000, 60_000)).toBeLessThanOrEqual(4800);
      expect(backoffMs(30, 1000, 60_000)).toBeLessThanOrEqual(72_000);
    }
  });
});

interface Spawned {
  proc: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('job queue across a crash', () => {
  let dataDir: string;
  const started: Spawned[] = [];
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'sb-jobs-crash-'));
    await copyMigratedDatabase(dataDir);
  });
  // A child still running after a failed wait would write into the data directory while it is removed.
  afterAll(async () => {
    for (const c of started) {
      if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
      await c.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  function child(enqueue: boolean): Spawned {
    const proc = spawn(process.execPath, [...builtEntry('crash-child'), dataDir, enqueue ? '1' : '0'], {
      cwd: serverRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
    proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
    const spawned = { proc, output: () => out, exited };
    started.push(spawned);
    return spawned;
  }

  it('resumes a job after its worker process is killed mid-job, without doing a step twice', async () => {
    const first = child(true);
    // A limit for a hung child, not a speed: starting it and PGlite took over 30 s at load 15.
    await until(async () => first.output().includes('step 2'), 90_000);
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(first.output()).not.toContain('step 6');

    const second = child(false);
    expect(await second.exited).toBe(0);
    const resumed = /resume (\S+) attempt (\d+) from (\d+)/.exec(second.output());
    expect(resumed?.[2]).toBe('2');
    expect(Number(resumed?.[3])).toBeGreaterThanOrEqual(3);
    expect(second.output()).toContain('step 6');

    const database = await openDatabase({ dataDir });
    try {
      const effects = await database.db.execute(sql`select job_id, step from job_effects order by step`);
      const rows = (effects as unknown as { rows: { job_id: string; step: number }[] }).rows;
      expect(rows.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6]);
      const [job] = await database.db.select().from(jobs);
      expect(job).toMatchObject({ id: resumed![1], status: 'done', attempts: 2 });
    } finally {
      await database.close();
    }
  }, 240_000);
});
