import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { blockedListSchema, blockInputSchema, blockResultSchema, unblockResultSchema } from '@studybuddy/shared/blocks';
import { chatIdFor } from '@studybuddy/shared/chat';
import { conversationTopic } from '@studybuddy/shared/realtime';
import { idParamSchema } from '@studybuddy/shared/social';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { block, blockedStudents, unblock } from './blocks.service.ts';

/** Block and unblock a student, and the list of Profile → Blocked students (issue 24 point 1). */
export function blocksRoutes(ctx: AppContext) {
  const { db } = ctx;
  /** Friends, requests and blocks of these students changed: their open tabs refresh them. */
  const changed = (userIds: string[]) => ctx.realtime.toUsers(userIds, { type: 'friendRequest.changed' });

  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['social'];
    const preValidation = signedIn;

    app.get(
      '/api/social/blocks',
      {
        preValidation,
        schema: {
          summary: 'The students the student blocked, newest first',
          tags,
          response: { 200: blockedListSchema, ...errorResponses },
        },
      },
      async (request) => ({ blocked: await blockedStudents(db, requireUser(request).id) }),
    );

    app.post(
      '/api/social/blocks',
      {
        preValidation,
        schema: {
          summary: 'Blocks a student (201; 200 when already blocked): requests withdrawn, friendship ended',
          tags,
          body: blockInputSchema,
          response: { 200: blockResultSchema, 201: blockResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const me = requireUser(request);
        const { userId } = request.body;
        const outcome = await block(db, me.id, userId);
        // The blocked student's tabs hear only of what they would see anyway: a friendship or a request gone.
        const theirsChanged = outcome.endedFriendship || outcome.withdrawn.length > 0;
        changed(theirsChanged ? [me.id, userId] : [me.id]);
        if (outcome.endedFriendship) {
          // Their one-to-one chat closes at once: every socket (on every instance) stops hearing it.
          ctx.realtime.revoke([me.id, userId], conversationTopic({ kind: 'chat', id: chatIdFor(me.id, userId) }));
        }
        return reply.status(outcome.created ? 201 : 200).send({ blocked: true as const });
      },
    );

    app.delete(
      '/api/social/blocks/:id',
      {
        preValidation,
        schema: {
          summary: 'Unblocks a student (404 when not blocked)',
          tags,
          params: idParamSchema,
          response: { 200: unblockResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const me = requireUser(request);
        await unblock(db, me.id, request.params.id);
        changed([me.id]);
        return { blocked: false as const };
      },
    );
  };
}
