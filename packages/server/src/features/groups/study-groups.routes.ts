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
import { noContent } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import type { StudyGroupsService } from './study-groups.service.ts';

const groupParams = z.object({ groupId: z.string().min(1).max(300) });

/** "Find a study group" and group invitations (issue 27 part 5). */
export function studyGroupsRoutes(service: StudyGroupsService, rateLimits: boolean) {
  const limit = perMinute(rateLimits, STUDY_GROUP_LIMITS.perMinute);
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['groups']);

    app.get(
      '/api/study-groups/suggestions',
      route(
        'Classmates of one of my courses with the most free time in common (three to five)',
        { querystring: studyGroupQuerySchema, response: { 200: studyGroupSuggestionsSchema } },
        limit,
      ),
      async (request) => service.suggestions(studentId(request), request.query.course),
    );

    app.post(
      '/api/study-groups',
      route(
        'Creates a group and invites classmates of the course to it',
        { body: createStudyGroupSchema, response: { 201: createStudyGroupResultSchema } },
        limit,
      ),
      async (request, reply) => reply.status(201).send(await service.create(studentId(request), request.body)),
    );

    app.get(
      '/api/group-invitations',
      route('My open invitations to groups', { response: { 200: groupInvitationListSchema } }),
      async (request) => service.invitations(studentId(request)),
    );

    app.post(
      '/api/group-invitations/:groupId/accept',
      route(
        'Accepts an invitation: joins the group',
        { params: groupParams, body: z.object({}), response: { 204: noContent } },
        limit,
      ),
      async (request, reply) => {
        await service.accept(studentId(request), request.params.groupId);
        return reply.status(204).send();
      },
    );

    app.post(
      '/api/group-invitations/:groupId/decline',
      route('Declines an invitation', { params: groupParams, body: z.object({}), response: { 204: noContent } }, limit),
      async (request, reply) => {
        await service.decline(studentId(request), request.params.groupId);
        return reply.status(204).send();
      },
    );
  };
}
