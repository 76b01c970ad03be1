import type { AppContext } from '../../platform/context.ts';
import { healthRoutes } from './health.routes.ts';

/** Liveness and readiness probes. */
export function healthFeature(ctx: AppContext) {
  return healthRoutes(ctx);
}
