import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { adminRoutes } from './admin.routes.ts';
import { createAdminService } from './admin.service.ts';
import { operatorRoutes } from './operator.routes.ts';
import { reportsRoutes } from './reports.routes.ts';
import { createReportService } from './reports.service.ts';

/**
 * Reports and moderation (issue 24 points 2 and 3): students report students and messages; admins (ADMINS, or
 * `npm run admin -- grant`) work the report queue, read feedback, find students and act, each action audited.
 */
export function moderationFeature(ctx: AppContext) {
  const reports = reportsRoutes(createReportService(ctx));
  const admin = adminRoutes(ctx, createAdminService(ctx));
  const operator = operatorRoutes(ctx);
  return async (app: FastifyInstance) => {
    await app.register(reports);
    // Its own plugin: the admin guard applies to these routes only.
    await app.register(admin);
    await app.register(operator);
  };
}
