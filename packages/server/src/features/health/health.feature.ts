import type { AppContext } from '../../platform/context.ts';
import { healthRoutes } from './health.routes.ts';
import { createHealthService } from './health.service.ts';

/** Liveness and readiness probes. */
export function healthFeature(ctx: AppContext) {
  return healthRoutes(createHealthService(ctx));
}
