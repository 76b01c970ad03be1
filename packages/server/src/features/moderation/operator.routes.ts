import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isLocalUnproxied } from '../../platform/backup/admin-access.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { changeGrant } from './admins.service.ts';

export const GRANTS_ROUTE = '/api/admin/operator/grants';

/** The bearer token of `npm run admin`: derived from SECRET_KEY, so only who can read the key can use it. */
export function grantsToken(secretKey: string): string {
  return createHmac('sha256', secretKey).update('studybuddy:admin:grants:v1').digest('base64url');
}

function tokenMatches(secretKey: string, header: string | undefined): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '', 'utf8');
  const expected = Buffer.from(grantsToken(secretKey), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const grantInputSchema = z.object({
  action: z.enum(['grant', 'revoke']),
  email: z.string().trim().min(3).max(320),
});

export const grantOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('noAccount') }),
  z.object({
    kind: z.literal('done'),
    changed: z.boolean(),
    viaSetting: z.boolean(),
    userId: z.string(),
    email: z.string(),
  }),
]);

/**
 * `npm run admin -- grant|revoke <email>` while a server runs on an embedded database (PGlite is one process, so
 * the command asks that server). Only callers on this machine, without proxy headers, with the token derived from
 * SECRET_KEY; anyone else is answered 404 like every other admin path.
 */
export function operatorRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.post(
      GRANTS_ROUTE,
      {
        onRequest: async (request) => {
          if (!isLocalUnproxied(request) || !tokenMatches(ctx.config.secretKey, request.headers.authorization)) {
            throw notFound();
          }
        },
        schema: {
          summary: 'Grants or revokes admin (npm run admin, this machine only)',
          tags: ['admin'],
          body: grantInputSchema,
          response: { 200: grantOutcomeSchema, ...errorResponses },
        },
      },
      async (request) => changeGrant(ctx, request.body.action, request.body.email),
    );
  };
}
