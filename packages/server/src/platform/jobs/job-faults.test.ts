// Issue 31: a job that meets a fault of the parts the server stands on (the file store or the database away, the
// disk full) waits it out without using its attempts; any other error still counts.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { StorageUnavailableError } from '../faults.ts';
import { createJobQueue, type JobLog, type JobQueue } from './job-queue.ts';

const silent: JobLog = { info: () => {}, warn: () => {}, error: () => {} };

async function until(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await check()); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
  }
}

describe('a job meeting a fault (issue 31)', () => {
  let t: TestApp;
  let q: JobQueue;
  const row = async (id: string) => (await t.app.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.ready();
    q = createJobQueue(t.app.ctx.database, silent, { pollMs: 20, backoffBaseMs: 20, backoffMaxMs: 40 });
  });
  afterAll(async () => {
    await q.stop();
    await t.close();
  });

  it('tries again without using an attempt while the store is away, and fails on its own errors as before', async () => {
    let runs = 0;
    q.define({
      kind: 'test.fault',
      maxAttempts: 2,
      handler: async () => {
        runs++;
        // Five times the store away: more than its two attempts.
        if (runs <= 5) throw new StorageUnavailableError(new Error('socket hang up'));
      },
    });
    q.define({
      kind: 'test.bug',
      maxAttempts: 2,
      handler: async () => {
        throw new Error('a bug');
      },
    });
    await q.start();
    const waited = (await q.enqueue('test.fault', {}))!;
    const buggy = (await q.enqueue('test.bug', {}))!;
    await until(async () => (await row(waited)).status === 'done');
    expect(runs).toBe(6);
    expect(await row(waited)).toMatchObject({ status: 'done', attempts: 1 });
    await until(async () => (await row(buggy)).status === 'failed');
    expect(await row(buggy)).toMatchObject({ attempts: 2, lastError: 'a bug' });
  });
});
