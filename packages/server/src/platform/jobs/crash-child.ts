// Test helper: a worker process that runs one slow, step-by-step job kind, so a test can kill it mid-job.
// Usage: node --import tsx crash-child.ts <dataDir> <enqueue:0|1>
import { sql } from 'drizzle-orm';
import { openDatabase } from '../../db/connect.ts';
import { createJobQueue, type JobLog } from './job-queue.ts';

const silent: JobLog = { info: () => {}, warn: () => {}, error: () => {} };

const [dataDir, enqueue] = process.argv.slice(2);
const database = await openDatabase({ dataDir: dataDir! });
await database.db.execute(
  sql`create table if not exists job_effects (job_id text, step int, primary key (job_id, step))`,
);
const queue = createJobQueue(database, silent, { pollMs: 50, leaseMs: 2000 });
queue.define<{ steps: number }>({
  kind: 'test.steps',
  async handler(payload, ctx) {
    const done = await database.db.execute(sql`select count(*)::int as n from job_effects where job_id = ${ctx.id}`);
    const from = (done as unknown as { rows: { n: number }[] }).rows[0]!.n + 1;
    console.log(`resume ${ctx.id} attempt ${ctx.attempt} from ${from}`);
    for (let step = from; step <= payload.steps; step++) {
      await new Promise((r) => setTimeout(r, 150));
      await database.db.execute(
        sql`insert into job_effects (job_id, step) values (${ctx.id}, ${step}) on conflict do nothing`,
      );
      console.log(`step ${step}`);
    }
  },
});
if (enqueue === '1') console.log(`enqueued ${await queue.enqueue('test.steps', { steps: 6 })}`);
await queue.start();
const timer = setInterval(async () => {
  const r = await database.db.execute(sql`select count(*)::int as n from jobs where status in ('queued', 'running')`);
  if ((r as unknown as { rows: { n: number }[] }).rows[0]!.n === 0) {
    clearInterval(timer);
    await queue.stop();
    await database.close();
    console.log('all done');
    process.exit(0);
  }
}, 100);
