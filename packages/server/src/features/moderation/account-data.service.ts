import type { Db } from '../../db/connect.ts';
import { reportsBy } from './moderation.repository.ts';

/**
 * The reports the student made, as their data download lists them: what they reported (a student, named as they saw
 * them, or a message), why, and when. Never what became of a report, nor the messages kept with it.
 */
export async function reportsForExport(
  db: Db,
  userId: string,
): Promise<
  { reported: 'student' | 'message'; student: string | null; reason: string; details: string; sentAt: string }[]
> {
  const rows = await reportsBy(db, userId);
  return rows.map((r) => ({
    reported: r.targetKind,
    student: r.snapshot.student?.name ?? null,
    reason: r.reason,
    details: r.details,
    sentAt: r.createdAt.toISOString(),
  }));
}
