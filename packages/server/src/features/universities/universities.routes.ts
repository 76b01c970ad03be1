import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { universitiesListSchema, type UniversitiesList } from '@studybuddy/shared/universities';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses } from '../../platform/openapi.ts';

/**
 * GET /api/universities: the universities open for sign-up, for the web app's sign-up and terms pages (the server's
 * setting is the only list; the web app holds no copy). LMS addresses are not shown (requirements §3).
 */
export function universitiesRoutes(ctx: AppContext) {
  const list: UniversitiesList = {
    universities: ctx.config.universities
      .filter((u) => u.signUp)
      .map((u) => ({ key: u.key, name: u.name, domains: [...u.domains] })),
  };
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
      async () => list,
    );
  };
}
