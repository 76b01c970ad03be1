import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { feedbackCreatedSchema, feedbackInputSchema } from '@studybuddy/shared/feedback';
import { errorResponses } from '../../platform/openapi.ts';
import type { FeedbackService } from './feedback.service.ts';

/** `POST /api/feedback`, signed in or not. */
export function feedbackRoutes(feedback: FeedbackService) {
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
        const userId = request.user?.emailVerified ? request.user.id : null;
        return reply.status(201).send(await feedback.submit(request.body, { userId, ip: request.ip }));
      },
    );
  };
}
