import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';

async function check(fn: () => Promise<unknown>): Promise<{ ok: boolean; error?: string }> {
  try {
    await fn();
    return { ok: true };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

export function healthRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/api/health', async (_request, reply) => {
      const [database, storage] = await Promise.all([
        check(() => ctx.database.ping()),
        check(() => ctx.storage.check()),
      ]);
      const ok = database.ok && storage.ok;
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: { kind: ctx.database.kind, ...database },
        storage: { driver: ctx.storage.driver, ...storage },
      });
    });
  };
}
