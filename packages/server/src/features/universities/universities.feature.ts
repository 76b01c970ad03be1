import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { universitiesRoutes } from './universities.routes.ts';
import { createUniversitiesService } from './universities.service.ts';

/**
 * The universities setting (UNIVERSITIES_FILE, read by config.ts): checked at start against the students already
 * stored, and served to the web app. Owns no table.
 */
export function universitiesFeature(ctx: AppContext) {
  const universities = createUniversitiesService(ctx);
  const routes = universitiesRoutes(universities);
  return async (app: FastifyInstance) => {
    await universities.checkStoredColleges();
    await routes(app);
  };
}
