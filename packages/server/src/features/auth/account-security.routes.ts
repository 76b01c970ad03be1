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
import { okSchema } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly } from '../../platform/signed-in.ts';
import { clearSessionCookie, requireUser } from '../../platform/session.ts';
import type { AccountSecurityService } from './account-security.service.ts';

/** Changing the password while signed in, and the student's signed-in browsers (issue 24, account controls). */
export function accountSecurityRoutes(ctx: AppContext, security: AccountSecurityService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['accounts']);
    // Guessing the current password with a stolen session is slowed like account deletion is.
    const guessLimit = accountLimits(ctx.config.rateLimits).passwordGuesses;

    app.post(
      ACCOUNT_API.password,
      route(
        'Changes the password (the current one required); every other session of the student ends',
        { body: changePasswordSchema, response: { 200: okSchema } },
        guessLimit,
      ),
      async (request) => {
        await security.changePassword(requireUser(request), request.body);
        return { ok: true as const };
      },
    );

    app.get(
      ACCOUNT_API.sessions,
      route("The student's signed-in browsers (created, last seen, user agent; the asking one marked)", {
        response: { 200: accountSessionListSchema },
      }),
      async (request) => ({ sessions: await security.listSessions(requireUser(request)) }),
    );

    app.delete(
      ACCOUNT_API.session,
      route("Signs one of the student's browsers out (404 for any id that is not one of theirs)", {
        params: sessionParamsSchema,
        response: { 200: okSchema },
      }),
      async (request, reply) => {
        const { current } = await security.signOutSession(requireUser(request), request.params.id);
        if (current) clearSessionCookie(reply);
        return { ok: true as const };
      },
    );

    app.post(
      ACCOUNT_API.signOutOthers,
      route('Signs out every browser of the student but this one', { response: { 200: signedOutOthersSchema } }),
      async (request) => ({ ended: await security.signOutOthers(requireUser(request)) }),
    );
  };
}
