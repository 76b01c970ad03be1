import type { FastifyInstance } from 'fastify';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { lockExpiredSessions } from './sessions.repository.ts';
import { deleteSessionsOf } from './sessions.service.ts';

/** How often each instance removes expired sessions (and, through the clean-ups, their push subscriptions). */
export const SESSION_SWEEP_MS = 60 * 60_000;
/** Sessions removed per transaction. */
const SWEEP_BATCH = 500;

/**
 * Removes every expired session, a batch per transaction, after the features' session clean-ups. Safe on several
 * instances at once: each batch is locked with SKIP LOCKED, so two sweeps never take the same session. Answers
 * how many this sweep removed.
 */
export async function sweepExpiredSessions(ctx: AppContext, batch = SWEEP_BATCH): Promise<number> {
  let removed = 0;
  for (;;) {
    const n = await withTransaction(ctx.db, async (tx) => {
      const ids = await lockExpiredSessions(tx, batch);
      await deleteSessionsOf(ctx, tx, ids);
      return ids.length;
    });
    removed += n;
    if (n < batch) return removed;
  }
}

/**
 * Sweeps once the app is ready, then every `everyMs` (each instance on its own; a restart sweeps at once). A
 * session's sockets do not wait for it: they are closed by the socket's own session check.
 */
export function installSessionSweep(app: FastifyInstance, ctx: AppContext, everyMs = SESSION_SWEEP_MS): void {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  const run = () => {
    running ??= sweepExpiredSessions(ctx)
      .then((n) => {
        if (n) ctx.log.info({ sessions: n }, 'expired sessions removed');
      })
      .catch((err: unknown) => ctx.log.warn({ err }, 'removing expired sessions failed'))
      .finally(() => {
        running = null;
      });
  };
  app.addHook('onReady', async () => {
    run();
    timer = setInterval(run, everyMs);
    timer.unref();
  });
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}
