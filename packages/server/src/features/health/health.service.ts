import type { FastifyBaseLogger } from 'fastify';
import { APP_VERSION } from '@studybuddy/shared/version';
import type { AppContext } from '../../platform/context.ts';

export type PartState = { status: 'up' | 'down'; ok: boolean };

/** Up or down only: the reason (connection strings, paths, driver messages) goes to the log, never to the caller. */
async function check(part: string, fn: () => Promise<unknown>, log: FastifyBaseLogger): Promise<PartState> {
  try {
    await fn();
    return { status: 'up', ok: true };
  } catch (err) {
    log.error({ err, part }, `health check: ${part} is down`);
    return { status: 'down', ok: false };
  }
}

/** The probes' answers: what the database and storage say, and whether this instance takes traffic. */
export function createHealthService(deps: Pick<AppContext, 'database' | 'storage' | 'lifecycle'>) {
  const parts = (log: FastifyBaseLogger) =>
    Promise.all([
      check('database', () => deps.database.ping(), log),
      check('storage', () => deps.storage.check(), log),
    ]);
  return {
    /** Readiness: started, not shutting down, database and storage answer. */
    async readiness(log: FastifyBaseLogger) {
      if (!deps.lifecycle.ready)
        return { ok: false as const, answer: { status: 'unavailable' as const, ready: false } };
      const [database, storage] = await parts(log);
      const ok = database.ok && storage.ok && deps.lifecycle.ready;
      return { ok, answer: { status: ok ? ('ok' as const) : ('unavailable' as const), ready: ok, database, storage } };
    },
    /** Database and storage state, with the release this server runs. */
    async state(log: FastifyBaseLogger) {
      const [database, storage] = await parts(log);
      const ok = database.ok && storage.ok;
      return {
        ok,
        answer: {
          status: ok ? ('ok' as const) : ('degraded' as const),
          version: APP_VERSION,
          database: { kind: deps.database.kind, ...database },
          storage: { driver: deps.storage.driver, ...storage },
        },
      };
    },
  };
}

export type HealthService = ReturnType<typeof createHealthService>;
