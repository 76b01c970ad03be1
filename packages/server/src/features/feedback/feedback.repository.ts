import type { Db } from '../../db/connect.ts';
import { feedback } from '../../db/schema/feedback.ts';

export async function insertFeedback(
  db: Db,
  row: { id: string; userId: string | null; feedback: string; rating: number },
): Promise<void> {
  await db.insert(feedback).values(row);
}
