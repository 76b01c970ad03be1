import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './connect.ts';

describe('PGlite queries take turns with I/O', () => {
  let dir: string;
  let database: Database;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'sb-connect-'));
    database = await openDatabase({ dataDir: dir });
  });
  afterAll(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('lets the event loop run between queued queries, so a burst cannot starve other requests', async () => {
    let done = 0;
    const burst = Array.from({ length: 100 }, () =>
      database.db.execute(sql`select count(*) from generate_series(1, 2000)`).then(() => done++),
    );
    // A socket read or timer queued now runs within a query or two, not after the whole burst.
    const doneWhenTimerRan = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    await Promise.all(burst);
    expect(done).toBe(100);
    expect(doneWhenTimerRan).toBeLessThan(5);
  });

  it('reads sockets between the queries of queued transactions too', async () => {
    let done = 0;
    const burst = Array.from({ length: 30 }, () =>
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select count(*) from generate_series(1, 2000)`);
        await tx.execute(sql`select 1`);
        done++;
      }),
    );
    const doneWhenTimerRan = await new Promise<number>((resolve) => setTimeout(() => resolve(done), 0));
    await Promise.all(burst);
    expect(done).toBe(30);
    expect(doneWhenTimerRan).toBeLessThan(3);
  });

  it("answers the health probe's ping without waiting behind the queue of queries", async () => {
    let done = 0;
    const burst = Array.from({ length: 100 }, () =>
      database.db.execute(sql`select count(*) from generate_series(1, 2000)`).then(() => done++),
    );
    const doneWhenPinged = await database.ping().then(() => done);
    await Promise.all(burst);
    expect(done).toBe(100);
    expect(doneWhenPinged).toBeLessThan(5);
  });

  it('keeps answers in order and errors to their own query', async () => {
    const answers = await Promise.allSettled([
      database.db.execute(sql`select 1 as n`),
      database.db.execute(sql`select * from no_such_table`),
      database.db.execute(sql`select 3 as n`),
    ]);
    expect(answers.map((a) => a.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((answers[2] as PromiseFulfilledResult<{ rows: Array<{ n: number }> }>).value.rows[0]!.n).toBe(3);
  });
});
