import type { FastifyInstance } from 'fastify';
import {
  deleteAccountSchema,
  notificationSettingsSchema,
  PROFILE_API,
  profileUpdateSchema,
} from '@studybuddy/shared/profile';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';
import { clearSessionCookie, requireUser } from '../auth/session.ts';
import { deleteAccount } from './account-deletion.service.ts';
import { getOwnProfile, registerProfileUploads, saveNotificationSettings, saveOwnProfile } from './profile.service.ts';

export function profileRoutes(ctx: AppContext) {
  registerProfileUploads(ctx);
  return async (app: FastifyInstance) => {
    /** The signed-in user's own profile. */
    app.get(PROFILE_API.own, async (request) => getOwnProfile(ctx, requireUser(request).id));

    /** Saves the own profile (spec §5 rules enforced here) and answers with it. */
    app.put(PROFILE_API.own, async (request) => {
      const user = requireUser(request);
      return saveOwnProfile(ctx, user.id, parse(profileUpdateSchema, request.body));
    });

    /** Turns e-mail notices on or off (beyond the spec; the profile page's switch). */
    app.put(PROFILE_API.notifications, async (request) => {
      const user = requireUser(request);
      return saveNotificationSettings(ctx, user.id, parse(notificationSettingsSchema, request.body));
    });

    /** Deletes the account after a password (or fresh social sign-in) confirmation. */
    app.delete(
      PROFILE_API.account,
      {
        config: ctx.config.rateLimits
          ? { rateLimit: { max: 10, timeWindow: '1 minute', keyGenerator: (r) => r.user?.id ?? r.ip } }
          : {},
      },
      async (request, reply) => {
        const user = requireUser(request);
        const { password } = parse(deleteAccountSchema, request.body);
        await deleteAccount(ctx, user, password);
        clearSessionCookie(reply);
        return { ok: true };
      },
    );
  };
}
