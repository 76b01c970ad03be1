import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { HealthService } from './health.service.ts';

const partStateSchema = z.object({ status: z.enum(['up', 'down']), ok: z.boolean() });
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

export function healthRoutes(health: HealthService) {
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
        const { ok, answer } = await health.readiness(request.log);
        return reply
          .status(ok ? 200 : 503)
          .header('Cache-Control', 'no-store')
          .send(answer);
      },
    );

    const state = { summary: 'Database and storage state', tags, response: { 200: healthSchema, 503: healthSchema } };
    app.get('/api/health', { schema: state }, async (request, reply) => {
      const { ok, answer } = await health.state(request.log);
      return reply
        .status(ok ? 200 : 503)
        .header('Cache-Control', 'no-store')
        .send(answer);
    });
  };
}
