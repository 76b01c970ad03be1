import type { AppContext } from '../../platform/context.ts';
import { registerAccessRule } from '../../platform/storage/access.ts';
import { filesRoutes } from './files.routes.ts';
import { createFilesService } from './files.service.ts';
import { createResumableService } from './resumable.service.ts';

/**
 * Uploads (direct and resumable) and stored files. `users/<id>/profile/…` is readable by every signed-in user;
 * anything else under `users/<id>/` by its owner only; a deleted account's files go with it.
 */
export async function filesFeature(ctx: AppContext) {
  registerAccessRule(ctx, 'users', (reader, fullPath) => {
    const [, owner, area] = fullPath.split('/');
    return owner === reader.id || area === 'profile';
  });
  const files = createFilesService(ctx);
  const resumable = await createResumableService(ctx);
  ctx.registry.accountCleanups.push((userId) => files.deleteUserFiles(userId));
  ctx.registry.accountCleanups.push((userId) => resumable.discardAll(userId));
  return filesRoutes(ctx, { files, resumable });
}
