import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { feedbackInputSchema } from '@studybuddy/shared/feedback';
import { feedback } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';

export function feedbackRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.post('/api/feedback', async (request, reply) => {
      const input = parse(feedbackInputSchema, request.body);
      const userId = request.user?.emailVerified ? request.user.id : null;
      const id = randomUUID();
      await ctx.db.insert(feedback).values({ id, userId, feedback: input.feedback, rating: input.rating });
      return reply.status(201).send({ id });
    });
  };
}
