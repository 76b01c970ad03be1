import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';

interface PartState {
  status: 'up' | 'down';
  ok: boolean;
}

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

export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    // Liveness: the process answers (no dependency is asked, so a database outage never restarts it).
    app.get('/api/health/live', async (_request, reply) =>
      reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
    );

    // Readiness: this instance should get traffic — started, not shutting down, database and storage answer.
    app.get('/api/health/ready', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      if (!ctx.lifecycle.ready) return reply.status(503).send({ status: 'unavailable', ready: false });
      const [database, storage] = await Promise.all([
        check('database', () => ctx.database.ping(), request.log),
        check('storage', () => ctx.storage.check(), request.log),
      ]);
      const ok = database.ok && storage.ok && ctx.lifecycle.ready;
      return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', ready: ok, database, storage });
    });

    app.get('/api/health', async (request, reply) => {
      const [database, storage] = await Promise.all([
        check('database', () => ctx.database.ping(), request.log),
        check('storage', () => ctx.storage.check(), request.log),
      ]);
      const ok = database.ok && storage.ok;
      return reply
        .status(ok ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send({
          status: ok ? 'ok' : 'degraded',
          database: { kind: ctx.database.kind, ...database },
          storage: { driver: ctx.storage.driver, ...storage },
        });
    });
  };
}
