import type { DocumentHit } from '@studybuddy/shared/search';
import type { AppContext } from '../../platform/context.ts';
import { firstMatch, passage, tsquery, type TextQuery } from '../../platform/full-text.ts';
import { searchPages } from './document-pages.repository.ts';

/**
 * Pages of the student's documents in these courses (those of their profile: the Courses page shows no other) with
 * the words.
 */
export async function findDocumentPages(
  ctx: AppContext,
  userId: string,
  courses: { id: string; name: string }[],
  q: TextQuery,
  limit: number,
): Promise<DocumentHit[]> {
  const names = new Map(courses.map((c) => [c.id, c.name]));
  const found = await searchPages(ctx.db, userId, [...names.keys()], tsquery(q), limit);
  return found.map((r) => ({
    documentId: r.documentId,
    name: r.name,
    courseId: r.courseId,
    courseName: names.get(r.courseId) ?? '',
    page: Number(r.page),
    label: r.label,
    snippet: passage(r.text, q, 240),
    match: firstMatch(r.text, q),
  }));
}
