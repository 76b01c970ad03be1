import type { AppContext } from '../../platform/context.ts';
import { dataExportRoutes } from './data-export.routes.ts';
import { createDataExportService } from './data-export.service.ts';

/**
 * "Download my data": a ZIP of the student's data, each part asked of the feature that owns it (this feature owns
 * no table).
 */
export function dataExportFeature(ctx: AppContext) {
  return dataExportRoutes(createDataExportService(ctx));
}
