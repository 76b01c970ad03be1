import type { AppContext } from '../../platform/context.ts';
import { profileRoutes } from './profile.routes.ts';
import { createProfileService, registerProfileUploads } from './profile.service.ts';

/** Profiles (the owner of `profiles` and `profile_courses`): the profile image upload target and the routes. */
export function profileFeature(ctx: AppContext) {
  registerProfileUploads(ctx);
  return profileRoutes(createProfileService(ctx));
}
