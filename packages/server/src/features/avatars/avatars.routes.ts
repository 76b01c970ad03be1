import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { errorResponses } from '../../platform/openapi.ts';
import { AVATAR_SEED, renderAvatar } from './avatars.service.ts';

const avatarParams = z.object({ file: z.string().describe('`<seed>.svg`') });

export function avatarRoutes(_ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const avatar = {
      summary: 'A generated robot avatar; the image depends only on the seed, so it is cached for good',
      tags: ['profile'],
      params: avatarParams,
      response: {
        200: { description: 'The SVG image', content: { 'image/svg+xml': { schema: z.string() } } },
        ...errorResponses,
      },
    };
    /** GET /api/avatars/<seed>.svg */
    app.get('/api/avatars/:file', { schema: avatar }, async (request, reply) => {
      const match = /^(.+)\.svg$/.exec(request.params.file);
      const seed = match?.[1];
      if (!seed || !AVATAR_SEED.test(seed)) throw notFound();
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(renderAvatar(seed));
    });
  };
}
