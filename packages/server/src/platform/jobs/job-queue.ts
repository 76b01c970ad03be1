import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db } from '../../db/connect.ts';
import { jobs } from '../../db/schema.ts';
import { currentRequestId } from '../request-context.ts';
import { jobRows } from './job-rows.ts';
import { JOB_REQUEST_ID, runClaimedJob, type JobRunner, type YIELD } from './job-run.ts';

export { backoffMs } from './job-rows.ts';
export { JOB_REQUEST_ID, PermanentJobError, YIELD } from './job-run.ts';

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

/** Unique to this process's lifetime (a restarted container may reuse the pid). */
const PROCESS_TAG = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:`;

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

  const rows = jobRows(database, { workerId, leaseMs, backoffBase, backoffMax }, () => [...definitions.keys()]);
  const runner: JobRunner = { definitions, rows, log, leaseMs, running: () => running };

  async function cleanup() {
    if (Date.now() - lastCleanup < 60 * 60_000) return;
    lastCleanup = Date.now();
    await rows.deleteFinished(retentionMs);
  }

  async function loop() {
    while (running) {
      try {
        if (active.size < concurrency) {
          const row = await rows.claim();
          if (row && running) {
            const controller = new AbortController();
            const done = runClaimedJob(runner, row, controller)
              .catch((err: unknown) => log.error({ err, job: row.id }, 'job bookkeeping failed'))
              .finally(() => {
                active.delete(row.id);
                wake();
              });
            active.set(row.id, { controller, done });
            continue;
          }
          if (row) await rows.release(row.id);
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
        await rows.freeOtherProcessesJobs(processTag);
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
