import type { FastifyInstance } from 'fastify';
import { accountLimits } from './route-limits.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { deleteAccountSchema, PROFILE_API } from '@studybuddy/shared/profile';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, okSchema } from '../../platform/openapi.ts';
import { clearSessionCookie, requireUser, signedIn } from '../../platform/session.ts';
import { deleteAccount } from './account-deletion.service.ts';

/** Deleting one's account (its address is the profile page's, where the button is). */
export function accountDeletionRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.delete(
      PROFILE_API.account,
      {
        config: accountLimits(ctx.config.rateLimits).passwordGuesses,
        preValidation: signedIn,
        schema: {
          summary: 'Deletes the account after a password (or fresh social sign-in) confirmation',
          tags: ['accounts'],
          body: deleteAccountSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await deleteAccount(ctx, user, request.body.password);
        clearSessionCookie(reply);
        return { ok: true as const };
      },
    );
  };
}
