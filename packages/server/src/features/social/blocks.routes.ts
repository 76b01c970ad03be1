import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { blockedListSchema, blockInputSchema, blockResultSchema, unblockResultSchema } from '@studybuddy/shared/blocks';
import { idParamSchema } from '@studybuddy/shared/social';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { BlocksService } from './blocks.service.ts';

const route = routeOptions(['social']);

/** Block and unblock a student, and the list of Profile → Blocked students (issue 24 point 1). */
export function blocksRoutes(blocks: BlocksService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/social/blocks',
      route('The students the student blocked, newest first', { response: { 200: blockedListSchema } }),
      async (request) => ({ blocked: await blocks.list(studentId(request)) }),
    );

    app.post(
      '/api/social/blocks',
      route('Blocks a student (201; 200 when already blocked): requests withdrawn, friendship ended', {
        body: blockInputSchema,
        response: { 200: blockResultSchema, 201: blockResultSchema },
      }),
      async (request, reply) => {
        const { created } = await blocks.block(studentId(request), request.body.userId);
        return reply.status(created ? 201 : 200).send({ blocked: true as const });
      },
    );

    app.delete(
      '/api/social/blocks/:id',
      route('Unblocks a student (404 when not blocked)', {
        params: idParamSchema,
        response: { 200: unblockResultSchema },
      }),
      async (request) => (await blocks.unblock(studentId(request), request.params.id), { blocked: false as const }),
    );
  };
}
