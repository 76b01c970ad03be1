import type { AppContext } from '../../platform/context.ts';
import { avatarRoutes } from './avatars.routes.ts';
import { createAvatarsService } from './avatars.service.ts';

/** The generated robot avatars of new profiles. */
export function avatarsFeature(_ctx: AppContext) {
  return avatarRoutes(createAvatarsService());
}
