import type { AppContext } from '../../platform/context.ts';
import { registerAccountCleanup } from '../auth/account-deletion.service.ts';
import { revokeCanvasToken } from './account-data.service.ts';
import { lmsRoutes } from './lms.routes.ts';

/** Canvas: the link (the owner of `lms_connections`), courses and coursework with its cache. */
export function lmsFeature(ctx: AppContext) {
  // A deleted account's Canvas token is withdrawn with Canvas too, not only forgotten here.
  registerAccountCleanup(ctx, (userId) => revokeCanvasToken(ctx, userId));
  return lmsRoutes(ctx);
}
