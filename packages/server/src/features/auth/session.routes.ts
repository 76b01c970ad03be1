import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { profiles } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { clearSessionCookie, deleteSession } from './session.ts';

export function sessionRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    /** Who is signed in, with their profile (null when signed out). */
    app.get('/api/auth/session', async (request) => {
      const user = request.user;
      if (!user || !user.emailVerified) return { user: null, profile: null };
      const [profile] = await ctx.db.select().from(profiles).where(eq(profiles.userId, user.id)).limit(1);
      return {
        user: { id: user.id, email: user.email, emailVerified: user.emailVerified },
        profile: profile
          ? {
              uid: profile.userId,
              email: profile.email,
              college: profile.college,
              name: profile.name,
              major: profile.major,
              year: profile.year,
              bio: profile.bio,
              courses: profile.courses,
              profilePicture: profile.profilePicture,
              hasCustomProfilePicture: profile.hasCustomProfilePicture,
              additionalImages: profile.additionalImages,
            }
          : null,
      };
    });

    app.post('/api/auth/logout', async (request, reply) => {
      if (request.user) await deleteSession(ctx.db, request.user.sessionId);
      clearSessionCookie(reply);
      return { ok: true };
    });
  };
}
