import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { universitiesListSchema } from '@studybuddy/shared/universities';
import { errorResponses } from '../../platform/openapi.ts';
import type { UniversitiesService } from './universities.service.ts';

/**
 * GET /api/universities: the universities open for sign-up, for the web app's sign-up and terms pages (the server's
 * setting is the only list; the web app holds no copy). LMS addresses are not shown (requirements §3).
 */
export function universitiesRoutes(universities: UniversitiesService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/universities',
      {
        schema: {
          summary: 'The universities whose e-mail domains may sign up',
          tags: ['accounts'],
          response: { 200: universitiesListSchema, ...errorResponses },
        },
      },
      async () => universities.list(),
    );
  };
}
