import type { AppContext } from '../../platform/context.ts';
import { searchRoutes } from './search.routes.ts';
import { createSearchService } from './search.service.ts';

/** The search box: people, groups, messages, coursework and documents, each from its owner's service. */
export function searchFeature(ctx: AppContext) {
  return searchRoutes(createSearchService(ctx), ctx.config.rateLimits);
}
