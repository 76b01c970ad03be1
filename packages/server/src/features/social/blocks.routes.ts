import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { blockedListSchema, blockInputSchema, blockResultSchema, unblockResultSchema } from '@studybuddy/shared/blocks';
import { idParamSchema } from '@studybuddy/shared/social';
import { errorResponses } from '../../platform/openapi.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { BlocksService } from './blocks.service.ts';

const tags = ['social'];

/** Block and unblock a student, and the list of Profile → Blocked students (issue 24 point 1). */
export function blocksRoutes(blocks: BlocksService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/social/blocks',
      {
        schema: {
          summary: 'The students the student blocked, newest first',
          tags,
          response: { 200: blockedListSchema, ...errorResponses },
        },
      },
      async (request) => ({ blocked: await blocks.list(studentId(request)) }),
    );

    app.post(
      '/api/social/blocks',
      {
        schema: {
          summary: 'Blocks a student (201; 200 when already blocked): requests withdrawn, friendship ended',
          tags,
          body: blockInputSchema,
          response: { 200: blockResultSchema, 201: blockResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { created } = await blocks.block(studentId(request), request.body.userId);
        return reply.status(created ? 201 : 200).send({ blocked: true as const });
      },
    );

    app.delete(
      '/api/social/blocks/:id',
      {
        schema: {
          summary: 'Unblocks a student (404 when not blocked)',
          tags,
          params: idParamSchema,
          response: { 200: unblockResultSchema, ...errorResponses },
        },
      },
      async (request) => (await blocks.unblock(studentId(request), request.params.id), { blocked: false as const }),
    );
  };
}
