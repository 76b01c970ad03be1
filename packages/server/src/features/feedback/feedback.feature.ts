import type { AppContext } from '../../platform/context.ts';
import { feedbackRoutes } from './feedback.routes.ts';

/** Feedback from anyone, signed in or not. */
export function feedbackFeature(ctx: AppContext) {
  return feedbackRoutes(ctx);
}
