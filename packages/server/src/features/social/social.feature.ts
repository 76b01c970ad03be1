import type { AppContext } from '../../platform/context.ts';
import type { FastifyInstance } from 'fastify';
import { blocksRoutes } from './blocks.routes.ts';
import { friendIds } from './friends.repository.ts';
import { socialRoutes } from './social.routes.ts';

/**
 * The social feature: match finder, search, friend requests, friendships and blocks. A profile's friends see it.
 */
export function socialFeature(ctx: AppContext) {
  ctx.registry.profileAudiences.push((userId) => friendIds(ctx.db, userId));
  const routes = [socialRoutes(ctx), blocksRoutes(ctx)];
  return async (app: FastifyInstance) => {
    for (const register of routes) await register(app);
  };
}
