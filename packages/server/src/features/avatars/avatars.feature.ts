import type { AppContext } from '../../platform/context.ts';
import { avatarRoutes } from './avatars.routes.ts';

/** The generated robot avatars of new profiles. */
export function avatarsFeature(ctx: AppContext) {
  return avatarRoutes(ctx);
}
