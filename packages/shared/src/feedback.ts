import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

export const feedbackInputSchema = z.object({
  feedback: z
    .string({ error: MSG.feedback.textRequired })
    .trim()
    .min(1, MSG.feedback.textRequired)
    .max(LIMITS.feedbackMaxChars),
  rating: z.coerce
    .number({ error: MSG.feedback.ratingRequired })
    .int(MSG.feedback.ratingRequired)
    .min(LIMITS.ratingMin, MSG.feedback.ratingRequired)
    .max(LIMITS.ratingMax, MSG.feedback.ratingRequired),
});
export type FeedbackInput = z.infer<typeof feedbackInputSchema>;

/** The answer to a stored feedback (201). */
export const feedbackCreatedSchema = z.object({ id: z.string() });
