import { faultOf } from '../faults.ts';
import { withRequestId } from '../request-context.ts';
import type { JobContext, JobDefinition, JobLog } from './job-queue.ts';
import type { ClaimedRow, JobRows } from './job-rows.ts';

/** A failure that retrying cannot fix (a corrupt file, a missing record): the job fails at once. */
export class PermanentJobError extends Error {}

/** What a handler returns to be put back in the queue and continued later (it saved its progress). */
export const YIELD = 'yield';

/** Payload key holding the id of the request that enqueued the job (handlers get the payload without it). */
export const JOB_REQUEST_ID = '_requestId';

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 2000);

/** What running a claimed job needs from its queue. */
export interface JobRunner {
  definitions: Map<string, JobDefinition<unknown>>;
  rows: JobRows;
  log: JobLog;
  leaseMs: number;
  /** False once the queue is stopping (an aborted job is then given back rather than left to its lease). */
  running(): boolean;
}

async function failFor(
  runner: JobRunner,
  def: JobDefinition<unknown>,
  row: ClaimedRow,
  payload: Record<string, unknown>,
  err: Error,
  ctx: JobContext,
) {
  await runner.rows.finish(row.id, 'failed', errorText(err));
  try {
    await def.onFailed?.(payload, err, ctx);
  } catch (hookErr) {
    ctx.log.error({ err: hookErr }, 'job onFailed hook failed');
  }
}

/**
 * Runs a claimed job's handler under the id of the request that enqueued it, heartbeating its lease, and settles
 * the row by the outcome: done, yielded, given back (aborted), waiting out a fault, failed or retried later.
 */
export async function runClaimedJob(runner: JobRunner, row: ClaimedRow, controller: AbortController): Promise<void> {
  const { [JOB_REQUEST_ID]: rawReqId, ...payload } = row.payload;
  const reqId = typeof rawReqId === 'string' ? rawReqId : undefined;
  return withRequestId(reqId, () => runJob(runner, row, payload, reqId, controller));
}

function jobContext(
  runner: JobRunner,
  row: ClaimedRow,
  reqId: string | undefined,
  controller: AbortController,
): JobContext {
  const { log, rows } = runner;
  return {
    id: row.id,
    attempt: row.attempts,
    maxAttempts: row.max_attempts,
    signal: controller.signal,
    owner: row.owner,
    log: log.child?.({ job: row.id, kind: row.kind, ...(reqId ? { reqId } : {}) }) ?? log,
    othersWaiting: () => rows.othersWaiting(row.owner),
  };
}

async function runJob(
  runner: JobRunner,
  row: ClaimedRow,
  payload: Record<string, unknown>,
  reqId: string | undefined,
  controller: AbortController,
): Promise<void> {
  const { rows, leaseMs } = runner;
  const def = runner.definitions.get(row.kind)!;
  const ctx = jobContext(runner, row, reqId, controller);
  const jobLog = ctx.log;
  const startedAt = Date.now();
  if (row.attempts > row.max_attempts) {
    // Its workers kept dying mid-job (e.g. out of memory): stop trying.
    await failFor(runner, def, row, payload, new Error('the job was interrupted too many times'), ctx);
    return;
  }
  const beat = setInterval(
    () => {
      rows
        .heartbeat(row.id)
        .then((held) => {
          if (!held) controller.abort(new Error('lease lost'));
        })
        .catch((err: unknown) => jobLog.warn({ err }, 'job heartbeat failed'));
    },
    Math.max(50, Math.floor(leaseMs / 3)),
  );
  try {
    const outcome = await def.handler(payload, ctx);
    if (outcome === YIELD) await rows.requeue(row.id);
    else await rows.finish(row.id, 'done');
    jobLog.info({ attempt: row.attempts, ms: Date.now() - startedAt, yielded: outcome === YIELD }, 'job finished');
  } catch (e) {
    const err = e instanceof Error ? e : new Error(String(e));
    if (controller.signal.aborted) {
      if (runner.running()) jobLog.warn('job lost its lease; another worker continues it');
      else await rows.release(row.id);
    } else if (faultOf(err)) {
      // The database, the file store or the disk is away (issue 31): not the job's fault, so no attempt is
      // used; it waits and tries again, however long the outage lasts.
      jobLog.info({ err: err.message, attempt: row.attempts }, 'job waits out a fault');
      await rows.waitOut(row.id, errorText(err));
    } else if (err instanceof PermanentJobError || row.attempts >= row.max_attempts) {
      jobLog.warn({ err }, 'job failed');
      await failFor(runner, def, row, payload, err, ctx);
    } else {
      jobLog.info({ err: err.message, attempt: row.attempts }, 'job will be retried');
      await rows.retryLater(row.id, row.attempts, errorText(err));
    }
  } finally {
    clearInterval(beat);
  }
}
