import { desc } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { feedback } from '../../db/schema/feedback.ts';

export async function insertFeedback(
  db: Db,
  row: { id: string; userId: string | null; feedback: string; rating: number },
): Promise<void> {
  await db.insert(feedback).values(row);
}

export type FeedbackRow = typeof feedback.$inferSelect;

/** The newest feedback first. */
export async function latestFeedback(db: Db, limit: number): Promise<FeedbackRow[]> {
  return db.select().from(feedback).orderBy(desc(feedback.createdAt), desc(feedback.id)).limit(limit);
}
