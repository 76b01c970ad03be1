import type { AppContext } from '../../platform/context.ts';
import { dataExportRoutes } from './data-export.routes.ts';

/**
 * "Download my data": a ZIP of the student's data, each part asked of the feature that owns it (this feature owns
 * no table).
 */
export function dataExportFeature(ctx: AppContext) {
  return dataExportRoutes(ctx);
}
