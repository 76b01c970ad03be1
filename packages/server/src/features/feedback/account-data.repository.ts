import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { feedback } from '../../db/schema/feedback.ts';

/** The feedback one student sent, oldest first (their data download). */
export async function feedbackOf(db: Db, userId: string) {
  return db
    .select({ feedback: feedback.feedback, rating: feedback.rating, createdAt: feedback.createdAt })
    .from(feedback)
    .where(eq(feedback.userId, userId))
    .orderBy(asc(feedback.createdAt));
}
