import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject, serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safeParse, type $ZodIssue, type $ZodType } from 'zod/v4/core';
import { apiErrorSchema } from '@studybuddy/shared/api-error';
import { AppError } from './errors.ts';

export const API_DOCS_PATH = '/api/docs';
/**
 * The one `<style>` element Swagger UI's bundle (5.x of @fastify/swagger-ui) inserts itself; its hash lets it
 * through the Docs page's style-src without 'unsafe-inline' (a Chromium check showed it as the only violation).
 */
const SWAGGER_UI_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
export const OPENAPI_JSON_PATH = `${API_DOCS_PATH}/openapi.json`;

type Refusal = (issue: $ZodIssue) => AppError | undefined;
const refusals = new WeakMap<$ZodType, Refusal>();

/**
 * A copy of `schema` whose failures answer `refuse(first issue)` (when it gives an error) instead of the
 * generic `validation_failed`: for routes whose spec names its own refusals (password reset links).
 */
export function refusedAs<T extends z.ZodType>(schema: T, refuse: Refusal): T {
  const copy = schema.clone();
  refusals.set(copy, refuse);
  return copy;
}

/**
 * Request parts are checked by the route's zod schemas exactly as `parse()` in errors.ts did by hand: a missing
 * body counts as `{}`, and the first problem is a 400 `validation_failed` naming its field.
 */
const validatorCompiler: FastifySchemaCompiler<$ZodType> = ({ schema }) => {
  const refuse = refusals.get(schema);
  return (data) => {
    const result = safeParse(schema, data ?? {});
    if (result.success) return { value: result.data };
    const issue = result.error.issues[0]!;
    const refused = refuse?.(issue);
    if (refused) return { error: refused };
    const field = issue.path.join('.') || undefined;
    return { error: new AppError(400, 'validation_failed', issue.message, field) };
  };
};

/**
 * Routes declare their contract once, as zod schemas (see /work/notes/openapi-pattern.md): the schemas validate
 * the request, serialise the answer (fields the schema does not name are not sent) and describe the route in the
 * OpenAPI document, served as JSON at /api/docs/openapi.json and browsable with Swagger UI at /api/docs.
 * Must run before any route is registered (the document is collected from the routes as they are added).
 */
export async function installApiDocs(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'StudyBuddy API',
        version: '1.0.0',
        description:
          'The JSON API of the StudyBuddy web app. Signed-in calls carry the `sb_session` cookie; unsafe methods ' +
          'must come from the app’s own origin. Every failure answers `{ error: { code, message, field? } }`.',
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'sb_session' },
          metricsToken: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [] }),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: API_DOCS_PATH,
    // Swagger UI's page loads only its own files (no inline script); its validator badge would call out.
    validatorUrl: false,
    uiConfig: { deepLinking: true },
    transformStaticCSP: (csp) => csp.replace("style-src 'self'", `style-src 'self' ${SWAGGER_UI_STYLE_HASH}`),
  });
  app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply.header('Cache-Control', 'no-cache').send(app.swagger()),
  );
}

/** Every route's failures (AppError, validation, quota, rate limit): `{ error: { code, message, field? } }`. */
export const errorResponses = { '4xx': apiErrorSchema, '5xx': apiErrorSchema } as const;

/** A 204 answer: no body. */
export const noContent = z.null().describe('No content');

/** `{ ok: true }`: done, nothing more to say. */
export const okSchema = z.object({ ok: z.literal(true) });

/** A redirect: no body, the Location header says where. */
export const redirect = z.null().describe('Redirect (see the Location header)');

/** A file answered as it is stored (its own content type); not run through a JSON serialiser. */
export const fileResponse = (description: string) => ({
  description,
  content: { 'application/octet-stream': { schema: z.custom<NodeJS.ReadableStream | Buffer>().describe('The file') } },
});
