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
