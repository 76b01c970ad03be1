import type { AppContext } from '../../platform/context.ts';
import { registerAccessRule } from '../../platform/storage/access.ts';
import { deleteUserFiles } from './files.service.ts';
import { filesRoutes } from './files.routes.ts';

/**
 * Uploads (direct and resumable) and stored files. `users/<id>/profile/…` is readable by every signed-in user;
 * anything else under `users/<id>/` by its owner only; a deleted account's files go with it.
 */
export function filesFeature(ctx: AppContext) {
  registerAccessRule(ctx, 'users', (reader, fullPath) => {
    const [, owner, area] = fullPath.split('/');
    return owner === reader.id || area === 'profile';
  });
  ctx.registry.accountCleanups.push((userId) => deleteUserFiles(ctx, userId));
  return filesRoutes(ctx);
}
