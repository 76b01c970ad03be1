import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notificationSettingsSchema, PROFILE_API, profileUpdateSchema } from '@studybuddy/shared/profile';
import { ownProfileSchema } from '@studybuddy/shared/session-responses';
import { errorResponses } from '../../platform/openapi.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { ProfileService } from './profile.service.ts';

export function profileRoutes(profile: ProfileService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    signedInOnly(app);
    const tags = ['profile'];

    app.get(
      PROFILE_API.own,
      {
        schema: {
          summary: "The signed-in student's own profile",
          tags,
          response: { 200: ownProfileSchema, ...errorResponses },
        },
      },
      async (request) => profile.own(studentId(request)),
    );

    app.put(
      PROFILE_API.own,
      {
        schema: {
          summary: 'Saves the own profile (requirements §5 rules) and answers with it',
          tags,
          body: profileUpdateSchema,
          response: { 200: ownProfileSchema, ...errorResponses },
        },
      },
      async (request) => profile.save(studentId(request), request.body),
    );

    app.put(
      PROFILE_API.notifications,
      {
        schema: {
          summary: 'Turns e-mail notices on or off',
          tags,
          body: notificationSettingsSchema,
          response: { 200: ownProfileSchema, ...errorResponses },
        },
      },
      async (request) => profile.saveNotificationSettings(studentId(request), request.body),
    );
  };
}
