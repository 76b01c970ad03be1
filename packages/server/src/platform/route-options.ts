import type { FastifySchema } from 'fastify';
import { errorResponses } from './openapi.ts';
import type { RouteRateLimit } from './rate-limit-presets.ts';

/** What a route declares beside its summary: its inputs and the answers it gives on success. */
type RouteSchema = Omit<FastifySchema, 'summary' | 'tags' | 'response'> & { response: Record<string, unknown> };

/** A route's options: its OpenAPI schema (summary, the feature's tags, the shared error answers) and rate limit. */
export interface RouteOptions<S extends RouteSchema> {
  schema: Omit<S, 'response'> & {
    summary: string;
    tags: string[];
    response: S['response'] & typeof errorResponses;
  };
  config?: RouteRateLimit;
}

/**
 * The options of a feature's routes, written once: `const route = routeOptions(['groups'])`, then each route
 * names its summary, schema and (optionally) a rate-limit preset —
 * `app.get('/api/groups', route('The groups', { response: { 200: groupListSchema } }), handler)`. Every route
 * answers errors with the shared error schema; signed-in routes get the hook from `signedInOnly` on their plugin.
 */
export function routeOptions(tags: string[]) {
  return <S extends RouteSchema>(summary: string, schema: S, limit?: RouteRateLimit): RouteOptions<S> => ({
    schema: { ...schema, summary, tags, response: { ...schema.response, ...errorResponses } },
    ...(limit ? { config: limit } : {}),
  });
}
