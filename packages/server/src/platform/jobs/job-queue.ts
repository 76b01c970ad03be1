import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/connect.ts';
import { jobs } from '../../db/schema.ts';
import { faultOf } from '../faults.ts';
import { currentRequestId, withRequestId } from '../request-context.ts';

/** A failure that retrying cannot fix (a corrupt file, a missing record): the job fails at once. */
export class PermanentJobError extends Error {}

export interface JobContext {
  id: string;
  /** 1 on the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the queue stops or the job's lease was lost. */
  signal: AbortSignal;
  /** Whose job this is ('' for the system). */
  owner: string;
  /** The job's logger: its lines carry the job, its kind and the id of the request that enqueued it. */
  log: JobLog;
  /**
   * True when another owner has a job waiting: a long job should then save its progress and return `'yield'`,
   * which puts it back at the end of the line (without using an attempt) so the others get their turn.
   */
  othersWaiting(): Promise<boolean>;
}

/** What a handler returns to be put back in the queue and continued later (it saved its progress). */
export const YIELD = 'yield';

export interface JobDefinition<P> {
  kind: string;
  handler(payload: P, ctx: JobContext): Promise<void | typeof YIELD>;
  /** Called once when the job has failed for good (permanent error or attempts used up). */
  onFailed?(payload: P, error: Error, ctx: JobContext): Promise<void>;
  maxAttempts?: number;
}

export interface EnqueueOptions {
  /** At most one queued or running job per key; a duplicate enqueue returns null. */
  dedupeKey?: string;
  /** Whose work it is (a user id): the queue takes turns between owners, so no one owner holds the lane. */
  owner?: string;
  runAt?: Date;
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction. */
  db?: Db;
}

export interface JobQueueOptions {
  workerId?: string;
  /** How often idle workers look for due jobs (enqueue in this process wakes them at once). */
  pollMs?: number;
  /** How long a claim lasts without a heartbeat; a crashed worker's job is claimable after it. */
  leaseMs?: number;
  concurrency?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Finished jobs are deleted after this long. */
  retentionMs?: number;
}

export interface JobQueue {
  define<P>(def: JobDefinition<P>): void;
  enqueue(kind: string, payload: Record<string, unknown>, options?: EnqueueOptions): Promise<string | null>;
  start(): Promise<void>;
  /** Stops claiming, aborts running handlers and hands their jobs back to the queue. */
  stop(): Promise<void>;
  wake(): void;
  readonly workerId: string;
}

interface ClaimedRow {
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

/** Unique to this process's lifetime (a restarted container may reuse the pid). */
const PROCESS_TAG = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:`;

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/**
 * A database-backed job queue: a row per job, claimed with FOR UPDATE SKIP LOCKED (so any number of
 * app instances share one table), leased with a heartbeat, retried with exponential back-off. Jobs survive
 * restarts: a job whose worker died becomes claimable when its lease runs out (at once on PGlite, where only
 * one process can hold the database).
 *
 * Fair share: the next job comes from the owner served least recently (the owner whose latest claim is
 * oldest, or who was never served), oldest job first within an owner. Long handlers yield between slices
 * (see `JobContext.othersWaiting`), so one student's 2,000 pages never hold the lane against another's page.
 */
export type JobLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> & {
  child?(bindings: Record<string, unknown>): JobLog;
};

/** Payload key holding the id of the request that enqueued the job (handlers get the payload without it). */
export const JOB_REQUEST_ID = '_requestId';

export function createJobQueue(database: Database, log: JobLog, options: JobQueueOptions = {}): JobQueue {
  const db = database.db;
  const processTag = PROCESS_TAG;
  const workerId = options.workerId ?? `${processTag}${randomUUID().slice(0, 8)}`;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? 30_000;
  const concurrency = options.concurrency ?? 1;
  const backoffBase = options.backoffBaseMs ?? 2000;
  const backoffMax = options.backoffMaxMs ?? 5 * 60_000;
  const retentionMs = options.retentionMs ?? 7 * 24 * 60 * 60_000;
  const definitions = new Map<string, JobDefinition<unknown>>();
  const active = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let wakeUp: (() => void) | null = null;
  let lastCleanup = 0;

  const wake = () => {
    wakeUp?.();
    wakeUp = null;
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      wakeUp = done;
    });

  const kindList = () =>
    sql.join(
      [...definitions.keys()].map((k) => sql`${k}`),
      sql`, `,
    );

  async function claim(): Promise<ClaimedRow | null> {
    if (!definitions.size) return null;
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
  }

  /** Extends the lease; false when another worker has taken the job over. */
  async function heartbeat(id: string): Promise<boolean> {
    const result = await db.execute(sql`
      update ${jobs} set locked_until = now() + ${leaseMs} * interval '1 millisecond'
      where id = ${id} and locked_by = ${workerId} and status = 'running'
      returning id`);
    return rowsOf(result).length > 0;
  }

  async function finish(id: string, status: 'done' | 'failed', error?: string) {
    await db.execute(sql`
      update ${jobs} set status = ${status}, locked_by = null, locked_until = null, finished_at = now(),
        updated_at = now(), last_error = coalesce(${error ?? null}, last_error)
      where id = ${id} and locked_by = ${workerId}`);
  }

  async function retryLater(id: string, attempt: number, error: string) {
    const delay = backoffMs(attempt, backoffBase, backoffMax);
    await db.execute(sql`
      update ${jobs} set status = 'queued', locked_by = null, locked_until = null, last_error = ${error},
        run_at = now() + ${delay} * interval '1 millisecond', updated_at = now()
      where id = ${id} and locked_by = ${workerId}`);
  }

  /** Due work of anyone but `owner` that this queue could run. */
  async function othersWaiting(owner: string): Promise<boolean> {
    const result = await db.execute(sql`
      select 1 from ${jobs}
      where kind in (${kindList()}) and owner <> ${owner} and status = 'queued' and run_at <= now()
      limit 1`);
    return rowsOf(result).length > 0;
  }

  /** Puts a yielding job at the back of the line; a yield is not a failed attempt. */
  async function requeue(id: string) {
    await db.execute(sql`
      update ${jobs} set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
        locked_until = null, run_at = now(), updated_at = now()
      where id = ${id} and locked_by = ${workerId} and status = 'running'`);
  }

  /** Puts a job that met a fault back for a later try, without counting the attempt. */
  async function waitOut(id: string, error: string) {
    const delay = backoffMs(1, backoffBase, backoffMax);
    await db.execute(sql`
      update ${jobs} set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
        locked_until = null, last_error = ${error}, run_at = now() + ${delay} * interval '1 millisecond',
        updated_at = now()
      where id = ${id} and locked_by = ${workerId}`);
  }

  /** Gives a job back without counting the attempt (graceful shutdown). */
  async function release(id: string) {
    await db.execute(sql`
      update ${jobs} set status = 'queued', attempts = greatest(attempts - 1, 0), locked_by = null,
        locked_until = null, updated_at = now()
      where id = ${id} and locked_by = ${workerId} and status = 'running'`);
  }

  async function failFor(
    def: JobDefinition<unknown>,
    row: ClaimedRow,
    payload: Record<string, unknown>,
    err: Error,
    ctx: JobContext,
  ) {
    await finish(row.id, 'failed', errorText(err));
    try {
      await def.onFailed?.(payload, err, ctx);
    } catch (hookErr) {
      ctx.log.error({ err: hookErr }, 'job onFailed hook failed');
    }
  }

  async function run(row: ClaimedRow, controller: AbortController): Promise<void> {
    const { [JOB_REQUEST_ID]: rawReqId, ...payload } = row.payload;
    const reqId = typeof rawReqId === 'string' ? rawReqId : undefined;
    return withRequestId(reqId, () => runJob(row, payload, reqId, controller));
  }

  async function runJob(
    row: ClaimedRow,
    payload: Record<string, unknown>,
    reqId: string | undefined,
    controller: AbortController,
  ): Promise<void> {
    const def = definitions.get(row.kind)!;
    const jobLog = log.child?.({ job: row.id, kind: row.kind, ...(reqId ? { reqId } : {}) }) ?? log;
    const startedAt = Date.now();
    const ctx: JobContext = {
      id: row.id,
      attempt: row.attempts,
      maxAttempts: row.max_attempts,
      signal: controller.signal,
      owner: row.owner,
      log: jobLog,
      othersWaiting: () => othersWaiting(row.owner),
    };
    if (row.attempts > row.max_attempts) {
      // Its workers kept dying mid-job (e.g. out of memory): stop trying.
      await failFor(def, row, payload, new Error('the job was interrupted too many times'), ctx);
      return;
    }
    const beat = setInterval(
      () => {
        heartbeat(row.id)
          .then((held) => {
            if (!held) controller.abort(new Error('lease lost'));
          })
          .catch((err: unknown) => jobLog.warn({ err }, 'job heartbeat failed'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    try {
      const outcome = await def.handler(payload, ctx);
      if (outcome === YIELD) await requeue(row.id);
      else await finish(row.id, 'done');
      jobLog.info({ attempt: row.attempts, ms: Date.now() - startedAt, yielded: outcome === YIELD }, 'job finished');
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      if (controller.signal.aborted) {
        if (running) jobLog.warn('job lost its lease; another worker continues it');
        else await release(row.id);
      } else if (faultOf(err)) {
        // The database, the file store or the disk is away (issue 31): not the job's fault, so no attempt is
        // used; it waits and tries again, however long the outage lasts.
        jobLog.info({ err: err.message, attempt: row.attempts }, 'job waits out a fault');
        await waitOut(row.id, errorText(err));
      } else if (err instanceof PermanentJobError || row.attempts >= row.max_attempts) {
        jobLog.warn({ err }, 'job failed');
        await failFor(def, row, payload, err, ctx);
      } else {
        jobLog.info({ err: err.message, attempt: row.attempts }, 'job will be retried');
        await retryLater(row.id, row.attempts, errorText(err));
      }
    } finally {
      clearInterval(beat);
    }
  }

  async function cleanup() {
    if (Date.now() - lastCleanup < 60 * 60_000) return;
    lastCleanup = Date.now();
    await db.execute(sql`
      delete from ${jobs} where status in ('done', 'failed')
        and finished_at < now() - ${retentionMs} * interval '1 millisecond'`);
  }

  async function loop() {
    while (running) {
      try {
        if (active.size < concurrency) {
          const row = await claim();
          if (row && running) {
            const controller = new AbortController();
            const done = run(row, controller)
              .catch((err: unknown) => log.error({ err, job: row.id }, 'job bookkeeping failed'))
              .finally(() => {
                active.delete(row.id);
                wake();
              });
            active.set(row.id, { controller, done });
            continue;
          }
          if (row) await release(row.id);
          await cleanup();
        }
      } catch (err) {
        if (!running) break;
        log.error({ err }, 'job queue poll failed');
      }
      // stop() during a claim found no sleep to wake: without this check the loop slept a whole poll after it.
      if (!running) break;
      await sleep(pollMs);
    }
  }

  return {
    workerId,
    define<P>(def: JobDefinition<P>) {
      definitions.set(def.kind, def as JobDefinition<unknown>);
      wake();
    },
    async enqueue(kind, payload, opts = {}) {
      const id = randomUUID();
      // The enqueuing request's id rides in the payload, so the job's log lines can name it.
      const reqId = currentRequestId();
      if (reqId) payload = { ...payload, [JOB_REQUEST_ID]: reqId };
      const rows = await (opts.db ?? db)
        .insert(jobs)
        .values({
          id,
          kind,
          owner: opts.owner ?? '',
          payload,
          dedupeKey: opts.dedupeKey ?? null,
          runAt: opts.runAt ?? new Date(),
          maxAttempts: opts.maxAttempts ?? definitions.get(kind)?.maxAttempts ?? 5,
        })
        .onConflictDoNothing()
        .returning({ id: jobs.id });
      if (rows.length) wake();
      return rows[0]?.id ?? null;
    },
    async start() {
      if (running) return;
      if (database.kind === 'pglite') {
        // Only this process can hold a PGlite database: a job another process was running belongs to a dead one.
        await db.execute(sql`
          update ${jobs} set locked_until = now()
          where status = 'running' and (locked_by is null or locked_by not like ${processTag + '%'})`);
      }
      running = true;
      loopDone = loop();
    },
    async stop() {
      if (!running) return;
      running = false;
      wake();
      await loopDone;
      for (const { controller } of active.values()) controller.abort(new Error('queue stopped'));
      // Handlers stop at their next check of the signal; one that does not is left to its lease (after 5 s, so a
      // graceful shutdown still ends within its 10 s).
      await Promise.race([
        Promise.all([...active.values()].map((a) => a.done)),
        new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
      ]);
    },
    wake,
  };
}
