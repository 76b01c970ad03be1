import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { APP_VERSION } from '@studybuddy/shared/version';
import type { AppContext } from '../../platform/context.ts';

const partStateSchema = z.object({ status: z.enum(['up', 'down']), ok: z.boolean() });
type PartState = z.infer<typeof partStateSchema>;

const liveSchema = z.object({ status: z.literal('ok') });
const readySchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  ready: z.boolean(),
  database: partStateSchema.optional(),
  storage: partStateSchema.optional(),
});
const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string().describe('The release this server runs (CHANGELOG.md)'),
  database: partStateSchema.extend({ kind: z.enum(['pglite', 'postgres']) }),
  storage: partStateSchema.extend({ driver: z.enum(['fs', 's3']) }),
});

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
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['health'];
    // Liveness: the process answers (no dependency is asked, so a database outage never restarts it).
    app.get(
      '/api/health/live',
      { schema: { summary: 'Liveness: the process answers', tags, response: { 200: liveSchema } } },
      async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }),
    );

    // Readiness: this instance should get traffic — started, not shutting down, database and storage answer.
    const readiness = { summary: 'Readiness: started, not shutting down, database and storage answer', tags };
    app.get(
      '/api/health/ready',
      { schema: { ...readiness, response: { 200: readySchema, 503: readySchema } } },
      async (request, reply) => {
        reply.header('Cache-Control', 'no-store');
        if (!ctx.lifecycle.ready) return reply.status(503).send({ status: 'unavailable', ready: false });
        const [database, storage] = await Promise.all([
          check('database', () => ctx.database.ping(), request.log),
          check('storage', () => ctx.storage.check(), request.log),
        ]);
        const ok = database.ok && storage.ok && ctx.lifecycle.ready;
        return reply.status(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', ready: ok, database, storage });
      },
    );

    const health = { summary: 'Database and storage state', tags, response: { 200: healthSchema, 503: healthSchema } };
    app.get('/api/health', { schema: health }, async (request, reply) => {
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
          version: APP_VERSION,
          database: { kind: ctx.database.kind, ...database },
          storage: { driver: ctx.storage.driver, ...storage },
        });
    });
  };
}
