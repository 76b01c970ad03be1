import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { feedbackCreatedSchema, feedbackInputSchema } from '@studybuddy/shared/feedback';
import { MSG } from '@studybuddy/shared/messages';
import { feedback } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { createQuota, HOUR_MS } from '../../platform/quota.ts';

export function feedbackRoutes(ctx: AppContext) {
  const quota = createQuota(ctx.db);
  // Feedback needs no log-in, so it is counted per client IP (QUOTA_FEEDBACK_PER_HOUR).
  const perHour = {
    what: MSG.quota.feedbackPerHour,
    limit: ctx.config.limits.feedbackPerHour,
    windowMs: HOUR_MS,
    when: MSG.quota.tryLater,
  };
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/feedback',
      {
        schema: {
          summary: 'Sends feedback (signed in or not)',
          tags: ['feedback'],
          body: feedbackInputSchema,
          response: { 201: feedbackCreatedSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const input = request.body;
        const userId = request.user?.emailVerified ? request.user.id : null;
        const id = randomUUID();
        const quotaKey = `feedback:ip:${request.ip}`;
        await quota.consume(quotaKey, perHour);
        try {
          await ctx.db.insert(feedback).values({ id, userId, feedback: input.feedback, rating: input.rating });
        } catch (err) {
          await quota.refund(quotaKey);
          throw err;
        }
        return reply.status(201).send({ id });
      },
    );
  };
}
