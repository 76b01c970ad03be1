import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connect.ts';
import { jobs } from '../../db/schema.ts';

export interface ClaimedRow {
  id: string;
  kind: string;
  owner: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
}

/** Delay before retry n (1-based): base·2^(n-1), capped, with ±20 % jitter. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const raw = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The leasing worker and its timings. */
export interface JobRowSettings {
  workerId: string;
  leaseMs: number;
  backoffBase: number;
  backoffMax: number;
}

/** The job rows' states, as one worker claims, leases, finishes, retries and gives back the jobs of `kinds`. */
export type JobRows = ReturnType<typeof jobRows>;

/**
 * The SQL of the job queue (the jobs table): claims with FOR UPDATE SKIP LOCKED in owners' turns, leases with a
 * heartbeat, and each way a claimed job goes back (done, failed, retried later, yielded, waiting out a fault,
 * released). Every change of a claimed job is the claiming worker's (`locked_by`).
 */
export function jobRows(database: Database, settings: JobRowSettings, kinds: () => string[]) {
  const db = database.db;
  const { workerId, leaseMs, backoffBase, backoffMax } = settings;
  const kindList = () =>
    sql.join(
      kinds().map((k) => sql`${k}`),
      sql`, `,
    );
  return {
    async claim(): Promise<ClaimedRow | null> {
      if (!kinds().length) return null;
      // Owners in turn (least recently served first), each one's oldest due job; the conditions sit on the locked
      // row itself, so a job another worker has just taken is re-checked and passed over.
      const due = sql`kind in (${kindList()})
      and ((status = 'queued' and run_at <= now()) or (status = 'running' and locked_until < now()))`;
      const result = await db.execute(sql`
      update ${jobs} set
        status = 'running',
        attempts = attempts + 1,
        locked_by = ${workerId},
        locked_until = now() + ${leaseMs} * interval '1 millisecond',
        claimed_at = clock_timestamp(),
        updated_at = now()
      where id = (
        with turns as materialized (
          select o.owner, (select max(s.claimed_at) from ${jobs} s where s.owner = o.owner) as served
          from (select distinct owner from ${jobs} where ${due}) o
        )
        select next.id from (select owner, served from turns order by served asc nulls first) t
        cross join lateral (
          select j.id from ${jobs} j
          where j.owner = t.owner and ${due}
          order by j.run_at, j.created_at
          limit 1
          for update of j skip locked
        ) next
        limit 1
      )
      returning id, kind, owner, payload, attempts, max_attempts`);
      return rowsOf<ClaimedRow>(result)[0] ?? null;
    },

    /** Extends the lease; false when another worker has taken the job over. */
    async heartbeat(id: string): Promise<boolean> {
      const result = await db.execute(sql`
      update ${jobs} set locked_until = now() + ${leaseMs} * interval '1 millisecond'
      where id = ${id} and locked_by = ${workerId} and status = 'running'
      returning id`);
      return rowsOf(result).length > 0;
    },

    async finish(id: string, status: 'done' | 'failed', error?: string) {
      await db.execute(sql`
      update ${jobs} set status = ${status}, locked_by = null, locked_until = null, finished_at = now(),
        updated_at = now(), last_error = coalesce(${error ?? null}, last_error)
      where id = ${id} and locked_by = ${workerId}`);
    },

    async retryLater(id: string, attempt: number, error: string) {
      const delay = backoffMs(attempt, backoffBase, backoffMax);
      await db.execute(sql`
      update ${jobs} set status = 'queued', locked_by = null, locked_until = null, last_error = ${error},
        run_at = now() + ${delay} * interval '1 millisecond', updated_at = now()
      where id = ${id} and locked_by = ${workerId}`);
    },

    /** Due work of anyone but `owner` that this queue could run. */
    async othersWaiting(owner: string): Promise<boolean> {
      const result = await db.execute(sql`
      select 1 from ${jobs}
      where kind in (${kindList()}) and owner <> ${owner} and status = 'queued' and run_at <= now()
      limit 1`);
      return rowsOf(result).length > 0;
    },

    /** Puts a yielding job at the back of the line; a yield is not a failed attempt. */
    async requeue(id: string) {
      await db.execute(sql`
      update ${jobs} set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
        locked_until = null, run_at = now(), updated_at = now()
      where id = ${id} and locked_by = ${workerId} and status = 'running'`);
    },

    /** Puts a job that met a fault back for a later try, without counting the attempt. */
    async waitOut(id: string, error: string) {
      const delay = backoffMs(1, backoffBase, backoffMax);
      await db.execute(sql`
      update ${jobs} set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
        locked_until = null, last_error = ${error}, run_at = now() + ${delay} * interval '1 millisecond',
        updated_at = now()
      where id = ${id} and locked_by = ${workerId}`);
    },

    /** Gives a job back without counting the attempt (graceful shutdown). */
    async release(id: string) {
      await db.execute(sql`
      update ${jobs} set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
        locked_until = null, updated_at = now()
      where id = ${id} and locked_by = ${workerId} and status = 'running'`);
    },
    /** Deletes the finished jobs older than `retentionMs`. */
    async deleteFinished(retentionMs: number) {
      await db.execute(sql`
        delete from ${jobs} where status in ('done', 'failed')
          and finished_at < now() - ${retentionMs} * interval '1 millisecond'`);
    },
    /** Only this process can hold a PGlite database: a job another process was running belongs to a dead one. */
    async freeOtherProcessesJobs(processTag: string) {
      await db.execute(sql`
        update ${jobs} set locked_until = now()
        where status = 'running' and (locked_by is null or locked_by not like ${processTag + '%'})`);
    },
  };
}
