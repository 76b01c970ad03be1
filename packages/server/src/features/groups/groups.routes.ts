import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { addMembersSchema, createGroupSchema, groupListQuerySchema, hotGroupSchema } from '@studybuddy/shared/groups';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';
import { requireUser } from '../auth/session.ts';
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

/** Groups and hot groups (spec §2 Groups, §6); their messages are served by the chat feature. */
export function groupsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    app.get('/api/groups', async (request) => {
      const user = requireUser(request);
      return listGroups(ctx, user.id, parse(groupListQuerySchema, request.query).kind);
    });

    app.post('/api/groups', async (request, reply) => {
      const user = requireUser(request);
      return reply.status(201).send(await createGroup(ctx, user.id, parse(createGroupSchema, request.body)));
    });

    app.get('/api/groups/friend-options', async (request) => friendOptions(ctx, requireUser(request).id));

    app.get('/api/groups/:id', async (request) => {
      const user = requireUser(request);
      return getGroup(ctx, user.id, parse(idParams, request.params).id);
    });

    app.post('/api/groups/:id/members', async (request) => {
      const user = requireUser(request);
      return addMembers(ctx, user.id, parse(idParams, request.params).id, parse(addMembersSchema, request.body));
    });

    app.post('/api/groups/:id/leave', async (request, reply) => {
      const user = requireUser(request);
      await leaveGroup(ctx, user.id, parse(idParams, request.params).id);
      return reply.status(204).send();
    });

    /** Creates or joins the hot group of a coursework item and answers its id (for /groups?groupIdToOpen=). */
    app.post('/api/hot-groups', async (request, reply) => {
      const user = requireUser(request);
      const result = await openHotGroup(ctx, user.id, parse(hotGroupSchema, request.body));
      return reply.status(result.created ? 201 : 200).send(result);
    });
  };
}
