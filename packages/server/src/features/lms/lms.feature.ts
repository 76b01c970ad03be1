import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { noCanvasFiles } from '../../platform/registry.ts';
import { registerAccountCleanup } from '../auth/account-deletion.service.ts';
import { createLmsService } from './canvas-link.service.ts';
import type { LmsOptions } from './lms-state.ts';
import { lmsRoutes } from './lms.routes.ts';

/**
 * Canvas: the link (the owner of `lms_connections`), courses and coursework with its cache; other features reach
 * Canvas files through `ctx.registry.canvasFiles`.
 */
export function lmsFeature(ctx: AppContext, options: LmsOptions = {}) {
  const lms = createLmsService(ctx, options);
  ctx.registry.canvasFiles = lms.canvasFiles;
  // A deleted account's Canvas token is withdrawn with Canvas too, not only forgotten here.
  registerAccountCleanup(ctx, (userId) => lms.revokeToken(userId));
  return async (app: FastifyInstance) => {
    app.addHook('onClose', async () => {
      ctx.registry.canvasFiles = noCanvasFiles;
    });
    await app.register(lmsRoutes(ctx, lms));
  };
}
