import type { FastifyContextConfig, FastifyInstance } from 'fastify';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { searchResultsSchema } from '@studybuddy/shared/search-responses';
import { SEARCH_LIMITS, searchQuerySchema } from '@studybuddy/shared/search';
import { errorResponses } from '../../platform/openapi.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { SearchService } from './search.service.ts';

/** The one search box (issue 17): GET /api/search?q=…&limit=… */
export function searchRoutes(search: SearchService, rateLimits: boolean) {
  // Per student: the dialog asks once per pause in typing.
  const limited: FastifyContextConfig = {
    inFlightPerClient: SEARCH_LIMITS.inFlight,
    ...perMinute(rateLimits, SEARCH_LIMITS.perMinute),
  };
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/api/search',
      {
        config: limited,
        schema: {
          summary: 'Searches people, groups, messages, coursework and course documents the student may see',
          tags: ['search'],
          querystring: searchQuerySchema,
          response: { 200: searchResultsSchema, ...errorResponses },
        },
      },
      (request) => search.search(studentId(request), request.query),
    );
  };
}
