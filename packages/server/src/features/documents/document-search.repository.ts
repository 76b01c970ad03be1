import { and, eq, ilike } from 'drizzle-orm';
import type { DocumentSearchHit, TextUnit } from '@studybuddy/shared/documents-api';
import type { Db } from '../../db/connect.ts';
import { courseDocuments, documentPages } from '../../db/schema/documents.ts';

const MAX_HITS = 30;
const SNIPPET = 160;
const MAX_WORD = 40;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Pages of the user's processed documents in a course that contain every word of the query. */
export async function searchCourse(db: Db, userId: string, courseId: string, q: string): Promise<DocumentSearchHit[]> {
  const words = [
    ...new Set(
      q
        .toLowerCase()
        .split(/\s+/)
        .filter((w) => w.length >= 2),
    ),
  ].slice(0, 6);
  if (!words.length) return [];
  const rows = await db
    .select({
      documentId: documentPages.documentId,
      name: courseDocuments.name,
      page: documentPages.page,
      unit: documentPages.unit,
      label: documentPages.label,
      text: documentPages.text,
    })
    .from(documentPages)
    .innerJoin(courseDocuments, eq(courseDocuments.id, documentPages.documentId))
    .where(
      and(
        eq(courseDocuments.userId, userId),
        eq(courseDocuments.courseId, courseId),
        ...words.map((w) => ilike(documentPages.text, `%${escapeLike(w)}%`)),
      ),
    )
    .orderBy(courseDocuments.name, documentPages.page)
    .limit(MAX_HITS);
  return rows.map((r) => {
    const lower = r.text.toLowerCase();
    const at = Math.max(0, lower.indexOf(words[0]!));
    let start = Math.max(0, at - SNIPPET / 2);
    let end = Math.min(r.text.length, at + words[0]!.length + SNIPPET / 2);
    // Widen to word boundaries so the snippet does not cut words (by a word's length at most: a page
    // without spaces would otherwise be quoted whole).
    for (let k = 0; k < MAX_WORD && start > 0 && /\S/.test(r.text[start - 1]!); k++) start--;
    for (let k = 0; k < MAX_WORD && end < r.text.length && /\S/.test(r.text[end]!); k++) end++;
    return {
      documentId: r.documentId,
      name: r.name,
      citation: {
        unit: r.unit as TextUnit,
        page: r.page,
        label: r.label,
        passage: r.text.slice(start, end).trim(),
        start,
        end,
      },
    };
  });
}
