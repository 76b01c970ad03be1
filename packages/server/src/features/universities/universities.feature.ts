import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { checkStoredColleges } from './stored-colleges.ts';
import { universitiesRoutes } from './universities.routes.ts';

/**
 * The universities setting (UNIVERSITIES_FILE, read by config.ts): checked at start against the students already
 * stored, and served to the web app. Owns no table.
 */
export function universitiesFeature(ctx: AppContext) {
  const routes = universitiesRoutes(ctx);
  return async (app: FastifyInstance) => {
    await checkStoredColleges(ctx);
    await routes(app);
  };
}
