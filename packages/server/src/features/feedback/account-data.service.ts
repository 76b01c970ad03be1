import type { Db } from '../../db/connect.ts';
import { feedbackOf } from './account-data.repository.ts';

/** The feedback the student sent while signed in, as their data download lists it. */
export async function feedbackForExport(
  db: Db,
  userId: string,
): Promise<{ feedback: string; rating: number; sentAt: string }[]> {
  const rows = await feedbackOf(db, userId);
  return rows.map((r) => ({ feedback: r.feedback, rating: r.rating, sentAt: r.createdAt.toISOString() }));
}
