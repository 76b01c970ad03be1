import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { AVATAR_SEED, renderAvatar } from './avatars.service.ts';

export function avatarRoutes(_ctx: AppContext) {
  return async (app: FastifyInstance) => {
    /** GET /api/avatars/<seed>.svg: a generated robot avatar; the output depends only on the seed, so it is cached for good. */
    app.get<{ Params: { file: string } }>('/api/avatars/:file', async (request, reply) => {
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
