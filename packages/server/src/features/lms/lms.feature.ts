import type { AppContext } from '../../platform/context.ts';
import { lmsRoutes } from './lms.routes.ts';

/** Canvas: the link (the owner of `lms_connections`), courses and coursework with its cache. */
export function lmsFeature(ctx: AppContext) {
  return lmsRoutes(ctx);
}
