import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionInfo } from '@studybuddy/shared/session';
import { sessionInfoSchema } from '@studybuddy/shared/session-responses';
import type { AppContext } from '../../platform/context.ts';
import { okSchema } from '../../platform/openapi.ts';
import { accountDeletionRoutes } from './account-deletion.routes.ts';
import { accountSecurityRoutes } from './account-security.routes.ts';
import { accountRoutes } from './account.routes.ts';
import type { AccountSecurityService } from './account-security.service.ts';
import type { AccountService } from './account.service.ts';
import { oidcRoutes } from './oidc.routes.ts';
import { profiles } from '../profile/profiles.service.ts';
import { clearSessionCookie } from './session.ts';
import { endSession } from './sessions.service.ts';

/** The whole accounts feature: session, log-out, and (registered from here) accounts and social sign-in. */
export function sessionRoutes(ctx: AppContext, accounts: AccountService, security: AccountSecurityService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    await app.register(accountRoutes(ctx, accounts));
    await app.register(oidcRoutes(ctx));
    await app.register(accountDeletionRoutes(ctx));
    await app.register(accountSecurityRoutes(ctx, security));
    const tags = ['accounts'];

    const session = {
      summary: 'Who is signed in, with their profile (null when signed out or unverified)',
      tags,
      response: { 200: sessionInfoSchema },
    };
    app.get('/api/auth/session', { schema: session }, async (request): Promise<SessionInfo> => {
      const user = request.user;
      if (!user || !user.emailVerified) return { user: null, profile: null };
      let profile = await profiles.own(ctx.db, user.id);
      if (!profile) {
        // Requirements §4: a verified user without a profile gets one with the defaults.
        // (Nothing when their university was taken out of the setting before they had a profile.)
        await profiles.ensure(ctx.db, user.id, user.email, ctx.config.universities);
        profile = await profiles.own(ctx.db, user.id);
      }
      return { user: { id: user.id, email: user.email, emailVerified: user.emailVerified }, profile };
    });

    const logout = {
      summary: 'Signs out (ends the session and closes its sockets)',
      tags,
      response: { 200: okSchema },
    };
    app.post('/api/auth/logout', { schema: logout }, async (request, reply) => {
      if (request.user) await endSession(ctx, request.user);
      clearSessionCookie(reply);
      return { ok: true as const };
    });
  };
}
