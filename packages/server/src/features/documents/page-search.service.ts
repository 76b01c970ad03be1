import type { DocumentHit } from '@studybuddy/shared/search';
import type { AppContext } from '../../platform/context.ts';
import { passage, tsquery, type TextQuery } from '../../platform/full-text.ts';
import { profileCourses } from './documents.repository.ts';
import { searchPages } from './page-search.repository.ts';

/** Pages of the student's documents in the courses of their profile (those the Courses page shows) with the words. */
export async function findDocumentPages(
  ctx: AppContext,
  userId: string,
  q: TextQuery,
  limit: number,
): Promise<DocumentHit[]> {
  const courses = await profileCourses(ctx.db, userId);
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
  }));
}
