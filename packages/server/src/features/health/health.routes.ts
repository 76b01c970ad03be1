import { access, mkdir } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
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
      const database = await check(() => ctx.database.ping());
      const filesDir = path.join(ctx.config.dataDir, 'files');
      const storage = await check(async () => {
        await mkdir(filesDir, { recursive: true });
        await access(filesDir, constants.W_OK);
      });
      const ok = database.ok && storage.ok;
      return reply.status(ok ? 200 : 503).send({
        status: ok ? 'ok' : 'degraded',
        database: { kind: ctx.database.kind, ...database },
        storage: { driver: ctx.config.storage, ...storage },
      });
    });
  };
}
