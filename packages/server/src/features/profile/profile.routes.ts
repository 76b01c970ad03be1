import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notificationSettingsSchema, PROFILE_API, profileUpdateSchema } from '@studybuddy/shared/profile';
import { ownProfileSchema } from '@studybuddy/shared/session-responses';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { getOwnProfile, saveNotificationSettings, saveOwnProfile } from './profile.service.ts';

export function profileRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['profile'];
    const preValidation = signedIn;

    app.get(
      PROFILE_API.own,
      {
        preValidation,
        schema: {
          summary: "The signed-in student's own profile",
          tags,
          response: { 200: ownProfileSchema, ...errorResponses },
        },
      },
      async (request) => getOwnProfile(ctx, requireUser(request).id),
    );

    app.put(
      PROFILE_API.own,
      {
        preValidation,
        schema: {
          summary: 'Saves the own profile (requirements §5 rules) and answers with it',
          tags,
          body: profileUpdateSchema,
          response: { 200: ownProfileSchema, ...errorResponses },
        },
      },
      async (request) => saveOwnProfile(ctx, requireUser(request).id, request.body),
    );

    app.put(
      PROFILE_API.notifications,
      {
        preValidation,
        schema: {
          summary: 'Turns e-mail notices on or off',
          tags,
          body: notificationSettingsSchema,
          response: { 200: ownProfileSchema, ...errorResponses },
        },
      },
      async (request) => saveNotificationSettings(ctx, requireUser(request).id, request.body),
    );
  };
}
