import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { addMembersSchema, createGroupSchema, groupListQuerySchema, hotGroupSchema } from '@studybuddy/shared/groups';
import {
  friendOptionsSchema,
  groupDetailSchema,
  groupListSchema,
  hotGroupResultSchema,
} from '@studybuddy/shared/groups-responses';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, noContent } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import {
  addMembers,
  createGroup,
  friendOptions,
  getGroup,
  leaveGroup,
  listGroups,
  openHotGroup,
} from './groups.service.ts';

const idParams = z.object({ id: z.string().min(1).max(300) });

/** Groups and hot groups (requirements §2 Groups, §6); their messages are served by the chat feature. */
export function groupsRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['groups'];
    const preValidation = signedIn;

    app.get(
      '/api/groups',
      {
        preValidation,
        schema: {
          summary: 'The groups (or hot groups) the student is in',
          tags,
          querystring: groupListQuerySchema,
          response: { 200: groupListSchema, ...errorResponses },
        },
      },
      async (request) => listGroups(ctx, requireUser(request).id, request.query.kind),
    );

    app.post(
      '/api/groups',
      {
        preValidation,
        schema: {
          summary: 'Creates a group with friends',
          tags,
          body: createGroupSchema,
          response: { 201: groupDetailSchema, ...errorResponses },
        },
      },
      async (request, reply) => reply.status(201).send(await createGroup(ctx, requireUser(request).id, request.body)),
    );

    app.get(
      '/api/groups/friend-options',
      {
        preValidation,
        schema: {
          summary: 'Friends who can be added to a group',
          tags,
          response: { 200: friendOptionsSchema, ...errorResponses },
        },
      },
      async (request) => friendOptions(ctx, requireUser(request).id),
    );

    app.get(
      '/api/groups/:id',
      {
        preValidation,
        schema: {
          summary: 'One group with its members',
          tags,
          params: idParams,
          response: { 200: groupDetailSchema, ...errorResponses },
        },
      },
      async (request) => getGroup(ctx, requireUser(request).id, request.params.id),
    );

    app.post(
      '/api/groups/:id/members',
      {
        preValidation,
        schema: {
          summary: 'Adds friends to a group',
          tags,
          params: idParams,
          body: addMembersSchema,
          response: { 200: groupDetailSchema, ...errorResponses },
        },
      },
      async (request) => addMembers(ctx, requireUser(request).id, request.params.id, request.body),
    );

    app.post(
      '/api/groups/:id/leave',
      {
        preValidation,
        schema: {
          summary: 'Leaves a group (an empty regular group is deleted)',
          tags,
          params: idParams,
          response: { 204: noContent, ...errorResponses },
        },
      },
      async (request, reply) => {
        await leaveGroup(ctx, requireUser(request).id, request.params.id);
        return reply.status(204).send();
      },
    );

    /** Creates or joins the hot group of a coursework item and answers its id (for /groups?groupIdToOpen=). */
    app.post(
      '/api/hot-groups',
      {
        preValidation,
        schema: {
          summary: 'Creates or joins the hot group of a coursework item',
          tags,
          body: hotGroupSchema,
          response: { 200: hotGroupResultSchema, 201: hotGroupResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const result = await openHotGroup(ctx, requireUser(request).id, request.body);
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );
  };
}
