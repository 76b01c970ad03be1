import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '../../platform/openapi.ts';
import type { AvatarsService } from './avatars.service.ts';

const avatarParams = z.object({ file: z.string().describe('`<seed>.svg`') });

export function avatarRoutes(avatars: AvatarsService) {
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
      const svg = avatars.image(request.params.file);
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(svg);
    });
  };
}
