import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notificationSettingsSchema, PROFILE_API, profileUpdateSchema } from '@studybuddy/shared/profile';
import { ownProfileSchema } from '@studybuddy/shared/session-responses';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { ProfileService } from './profile.service.ts';

export function profileRoutes(profile: ProfileService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    signedInOnly(app);
    const route = routeOptions(['profile']);

    app.get(
      PROFILE_API.own,
      route("The signed-in student's own profile", { response: { 200: ownProfileSchema } }),
      async (request) => profile.own(studentId(request)),
    );

    app.put(
      PROFILE_API.own,
      route('Saves the own profile (requirements §5 rules) and answers with it', {
        body: profileUpdateSchema,
        response: { 200: ownProfileSchema },
      }),
      async (request) => profile.save(studentId(request), request.body),
    );

    app.put(
      PROFILE_API.notifications,
      route('Turns e-mail notices on or off', {
        body: notificationSettingsSchema,
        response: { 200: ownProfileSchema },
      }),
      async (request) => profile.saveNotificationSettings(studentId(request), request.body),
    );
  };
}
