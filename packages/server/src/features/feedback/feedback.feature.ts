import type { AppContext } from '../../platform/context.ts';
import { feedbackRoutes } from './feedback.routes.ts';
import { createFeedbackService } from './feedback.service.ts';

/** Feedback from anyone, signed in or not. */
export function feedbackFeature(ctx: AppContext) {
  return feedbackRoutes(createFeedbackService(ctx));
}
