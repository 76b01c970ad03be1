import type { FastifyInstance } from 'fastify';
import { accountLimits } from './route-limits.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ACCOUNT_API,
  accountSessionListSchema,
  changePasswordSchema,
  sessionParamsSchema,
  signedOutOthersSchema,
} from '@studybuddy/shared/account';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, okSchema } from '../../platform/openapi.ts';
import { clearSessionCookie, requireUser, signedIn } from '../../platform/session.ts';
import type { AccountSecurityService } from './account-security.service.ts';

/** Changing the password while signed in, and the student's signed-in browsers (issue 24, account controls). */
export function accountSecurityRoutes(ctx: AppContext, security: AccountSecurityService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['accounts'];
    // Guessing the current password with a stolen session is slowed like account deletion is.
    const guessLimit = accountLimits(ctx.config.rateLimits).passwordGuesses;

    app.post(
      ACCOUNT_API.password,
      {
        config: guessLimit,
        preValidation: signedIn,
        schema: {
          summary: 'Changes the password (the current one required); every other session of the student ends',
          tags,
          body: changePasswordSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request) => {
        await security.changePassword(requireUser(request), request.body);
        return { ok: true as const };
      },
    );

    app.get(
      ACCOUNT_API.sessions,
      {
        preValidation: signedIn,
        schema: {
          summary: "The student's signed-in browsers (created, last seen, user agent; the asking one marked)",
          tags,
          response: { 200: accountSessionListSchema, ...errorResponses },
        },
      },
      async (request) => ({ sessions: await security.listSessions(requireUser(request)) }),
    );

    app.delete(
      ACCOUNT_API.session,
      {
        preValidation: signedIn,
        schema: {
          summary: "Signs one of the student's browsers out (404 for any id that is not one of theirs)",
          tags,
          params: sessionParamsSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { current } = await security.signOutSession(requireUser(request), request.params.id);
        if (current) clearSessionCookie(reply);
        return { ok: true as const };
      },
    );

    app.post(
      ACCOUNT_API.signOutOthers,
      {
        preValidation: signedIn,
        schema: {
          summary: 'Signs out every browser of the student but this one',
          tags,
          response: { 200: signedOutOthersSchema, ...errorResponses },
        },
      },
      async (request) => ({ ended: await security.signOutOthers(requireUser(request)) }),
    );
  };
}
