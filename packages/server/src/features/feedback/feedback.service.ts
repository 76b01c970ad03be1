import { randomUUID } from 'node:crypto';
import type { FeedbackInput } from '@studybuddy/shared/feedback';
import { MSG } from '@studybuddy/shared/messages';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/connect.ts';
import { createQuota, HOUR_MS } from '../../platform/quota.ts';
import { insertFeedback, latestFeedback, type FeedbackRow } from './feedback.repository.ts';

/** Feedback of anyone, signed in or not (QUOTA_FEEDBACK_PER_HOUR per client IP, as no log-in is needed). */
export function createFeedbackService(deps: { db: Db; config: Config }) {
  const quota = createQuota(deps.db);
  const perHour = {
    what: MSG.quota.feedbackPerHour,
    limit: deps.config.limits.feedbackPerHour,
    windowMs: HOUR_MS,
    when: MSG.quota.tryLater,
  };
  return {
    /** Stores the feedback; a refused or failed one is not counted against the sender's IP. */
    async submit(input: FeedbackInput, from: { userId: string | null; ip: string }): Promise<{ id: string }> {
      const id = randomUUID();
      const quotaKey = `feedback:ip:${from.ip}`;
      await quota.consume(quotaKey, perHour);
      try {
        await insertFeedback(deps.db, { id, userId: from.userId, feedback: input.feedback, rating: input.rating });
      } catch (err) {
        await quota.refund(quotaKey);
        throw err;
      }
      return { id };
    },
  };
}

export type FeedbackService = ReturnType<typeof createFeedbackService>;

export type { FeedbackRow };

/** The feedback inbox of the admin area (issue 24): the newest `limit` messages. */
export const feedbackInbox = (db: Db, limit: number) => latestFeedback(db, limit);
