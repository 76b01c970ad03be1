import type { AppContext } from '../../platform/context.ts';
import { friendIds } from './friends.repository.ts';
import { socialRoutes } from './social.routes.ts';

/** The social feature: match finder, search, friend requests and friendships. A profile's friends see it. */
export function socialFeature(ctx: AppContext) {
  ctx.registry.profileAudiences.push((userId) => friendIds(ctx.db, userId));
  return socialRoutes(ctx);
}
