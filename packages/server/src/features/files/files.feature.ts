import type { AppContext } from '../../platform/context.ts';
import { deleteUserFiles } from './files.service.ts';
import { filesRoutes } from './files.routes.ts';

/** Uploads (direct and resumable) and stored files; a deleted account's files go with it. */
export function filesFeature(ctx: AppContext) {
  ctx.registry.accountCleanups.push((userId) => deleteUserFiles(ctx, userId));
  return filesRoutes(ctx);
}
