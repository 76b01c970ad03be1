import type { FastifyContextConfig, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG } from '@studybuddy/shared/messages';
import { searchResultsSchema } from '@studybuddy/shared/search-responses';
import { SEARCH_LIMITS, searchQuerySchema } from '@studybuddy/shared/search';
import { SOCIAL_ERRORS } from '@studybuddy/shared/social';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { search } from './search.service.ts';

/** The one search box (issue 17): GET /api/search?q=…&limit=… */
export function searchRoutes(ctx: AppContext) {
  // Per student: the dialog asks once per pause in typing.
  const limited: FastifyContextConfig = {
    inFlightPerClient: SEARCH_LIMITS.inFlight,
    ...(ctx.config.rateLimits && {
      rateLimit: {
        max: SEARCH_LIMITS.perMinute,
        timeWindow: '1 minute',
        keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip,
      },
    }),
  };
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/search',
      {
        preValidation: signedIn,
        config: limited,
        schema: {
          summary: 'Searches people, groups, messages, coursework and course documents the student may see',
          tags: ['search'],
          querystring: searchQuerySchema,
          response: { 200: searchResultsSchema, ...errorResponses },
        },
      },
      async (request) => {
        const results = await search(ctx, requireUser(request).id, request.query);
        // As for the social screens (requirements §6): a student with an incomplete profile finds nobody yet.
        if (!results) throw new AppError(403, SOCIAL_ERRORS.profileIncomplete, MSG.profile.completeFirst);
        return results;
      },
    );
  };
}
