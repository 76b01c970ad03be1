import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  STUDY_GROUP_LIMITS,
  createStudyGroupResultSchema,
  createStudyGroupSchema,
  groupInvitationListSchema,
  studyGroupQuerySchema,
  studyGroupSuggestionsSchema,
} from '@studybuddy/shared/study-groups';
import { errorResponses, noContent } from '../../platform/openapi.ts';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import type { StudyGroupsService } from './study-groups.service.ts';

const groupParams = z.object({ groupId: z.string().min(1).max(300) });

/** "Find a study group" and group invitations (issue 27 part 5). */
export function studyGroupsRoutes(service: StudyGroupsService, rateLimits: boolean) {
  const limit = perMinute(rateLimits, STUDY_GROUP_LIMITS.perMinute);
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['groups'];
    const preValidation = signedIn;

    app.get(
      '/api/study-groups/suggestions',
      {
        preValidation,
        config: limit,
        schema: {
          summary: 'Classmates of one of my courses with the most free time in common (three to five)',
          tags,
          querystring: studyGroupQuerySchema,
          response: { 200: studyGroupSuggestionsSchema, ...errorResponses },
        },
      },
      async (request) => service.suggestions(requireUser(request).id, request.query.course),
    );

    app.post(
      '/api/study-groups',
      {
        preValidation,
        config: limit,
        schema: {
          summary: 'Creates a group and invites classmates of the course to it',
          tags,
          body: createStudyGroupSchema,
          response: { 201: createStudyGroupResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => reply.status(201).send(await service.create(requireUser(request).id, request.body)),
    );

    app.get(
      '/api/group-invitations',
      {
        preValidation,
        schema: {
          summary: 'My open invitations to groups',
          tags,
          response: { 200: groupInvitationListSchema, ...errorResponses },
        },
      },
      async (request) => service.invitations(requireUser(request).id),
    );

    app.post(
      '/api/group-invitations/:groupId/accept',
      {
        preValidation,
        config: limit,
        schema: {
          summary: 'Accepts an invitation: joins the group',
          tags,
          params: groupParams,
          body: z.object({}),
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await service.accept(requireUser(request).id, request.params.groupId);
        return reply.status(204).send();
      },
    );

    app.post(
      '/api/group-invitations/:groupId/decline',
      {
        preValidation,
        config: limit,
        schema: {
          summary: 'Declines an invitation',
          tags,
          params: groupParams,
          body: z.object({}),
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await service.decline(requireUser(request).id, request.params.groupId);
        return reply.status(204).send();
      },
    );
  };
}
