import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { SessionInfo } from '@studybuddy/shared/session';
import { sessionInfoSchema } from '@studybuddy/shared/session-responses';
import { profiles } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { okSchema } from '../../platform/openapi.ts';
import { accountRoutes } from './account.routes.ts';
import { ensureProfile } from './accounts.repository.ts';
import { oidcRoutes } from './oidc.routes.ts';
import { toOwnProfile } from '../profile/profile.service.ts';
import { clearSessionCookie, deleteSession } from './session.ts';

/** The whole accounts feature: session, log-out, and (registered from here) accounts and social sign-in. */
export function sessionRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    await app.register(accountRoutes(ctx));
    await app.register(oidcRoutes(ctx));
    const tags = ['accounts'];

    const session = {
      summary: 'Who is signed in, with their profile (null when signed out or unverified)',
      tags,
      response: { 200: sessionInfoSchema },
    };
    app.get('/api/auth/session', { schema: session }, async (request): Promise<SessionInfo> => {
      const user = request.user;
      if (!user || !user.emailVerified) return { user: null, profile: null };
      const load = async () => (await ctx.db.select().from(profiles).where(eq(profiles.userId, user.id)).limit(1))[0];
      let profile = await load();
      if (!profile) {
        // Spec §4: a verified user without a profile gets one with the defaults.
        await ensureProfile(ctx.db, user.id, user.email);
        profile = await load();
      }
      return {
        user: { id: user.id, email: user.email, emailVerified: user.emailVerified },
        profile: profile ? toOwnProfile(profile) : null,
      };
    });

    const logout = { summary: 'Signs out (ends the session)', tags, response: { 200: okSchema } };
    app.post('/api/auth/logout', { schema: logout }, async (request, reply) => {
      if (request.user) await deleteSession(ctx.db, request.user.sessionId);
      clearSessionCookie(reply);
      return { ok: true as const };
    });
  };
}
