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
import { noContent } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
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
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    const route = routeOptions(['groups']);

    app.get(
      '/api/groups',
      route('The groups (or hot groups) the student is in', {
        querystring: groupListQuerySchema,
        response: { 200: groupListSchema },
      }),
      async (request) => listGroups(ctx, studentId(request), request.query.kind),
    );

    app.post(
      '/api/groups',
      route('Creates a group with friends', { body: createGroupSchema, response: { 201: groupDetailSchema } }),
      async (request, reply) => reply.status(201).send(await createGroup(ctx, studentId(request), request.body)),
    );

    app.get(
      '/api/groups/friend-options',
      route('Friends who can be added to a group', { response: { 200: friendOptionsSchema } }),
      async (request) => friendOptions(ctx, studentId(request)),
    );

    app.get(
      '/api/groups/:id',
      route('One group with its members', { params: idParams, response: { 200: groupDetailSchema } }),
      async (request) => getGroup(ctx, studentId(request), request.params.id),
    );

    app.post(
      '/api/groups/:id/members',
      route('Adds friends to a group', {
        params: idParams,
        body: addMembersSchema,
        response: { 200: groupDetailSchema },
      }),
      async (request) => addMembers(ctx, studentId(request), request.params.id, request.body),
    );

    app.post(
      '/api/groups/:id/leave',
      route('Leaves a group (an empty regular group is deleted)', { params: idParams, response: { 204: noContent } }),
      async (request, reply) => {
        await leaveGroup(ctx, studentId(request), request.params.id);
        return reply.status(204).send();
      },
    );

    /** Creates or joins the hot group of a coursework item and answers its id (for /groups?groupIdToOpen=). */
    app.post(
      '/api/hot-groups',
      route('Creates or joins the hot group of a coursework item', {
        body: hotGroupSchema,
        response: { 200: hotGroupResultSchema, 201: hotGroupResultSchema },
      }),
      async (request, reply) => {
        const result = await openHotGroup(ctx, studentId(request), request.body);
        return reply.status(result.created ? 201 : 200).send(result);
      },
    );
  };
}
