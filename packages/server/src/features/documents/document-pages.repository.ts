import { and, asc, eq, gte, ilike, lte, sql, type SQL } from 'drizzle-orm';
import type { DocumentSearchHit, TextUnit } from '@studybuddy/shared/documents-api';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';
import { courseDocuments, documentPages } from '../../db/schema/documents.ts';
import type { ExtractedPage } from './extraction/extract-types.ts';

/**
 * The document_pages rows: each document's text, page by page, and the searches over it (a page is read through
 * its document, whose owner and course it shares).
 */

export type PageRow = typeof documentPages.$inferSelect;

/** Writes pages idempotently: a resumed job rewrites a page instead of adding a second one. */
export async function upsertPages(db: Db, documentId: string, pages: ExtractedPage[]): Promise<void> {
  if (!pages.length) return;
  await db
    .insert(documentPages)
    .values(pages.map((p) => ({ documentId, ...p })))
    .onConflictDoUpdate({
      target: [documentPages.documentId, documentPages.page],
      set: {
        text: sql`excluded.text`,
        unit: sql`excluded.unit`,
        label: sql`excluded.label`,
        method: sql`excluded.method`,
      },
    });
}

/** The document's pages `from`..`to` (flashcards and quizzes from a page range). */
export async function pagesBetween(db: Db, documentId: string, from: number, to: number) {
  return db
    .select({
      page: documentPages.page,
      unit: documentPages.unit,
      label: documentPages.label,
      text: documentPages.text,
    })
    .from(documentPages)
    .where(and(eq(documentPages.documentId, documentId), gte(documentPages.page, from), lte(documentPages.page, to)))
    .orderBy(asc(documentPages.page));
}

export async function listPages(db: Db, documentId: string): Promise<PageRow[]> {
  return db.select().from(documentPages).where(eq(documentPages.documentId, documentId)).orderBy(documentPages.page);
}

export async function deletePages(db: Db, documentId: string): Promise<void> {
  await db.delete(documentPages).where(eq(documentPages.documentId, documentId));
}

/** The first page not yet stored (pages are written in order, so this is where a resumed job continues). */
export async function nextMissingPage(db: Db, documentId: string): Promise<number> {
  const stored = await db
    .select({ page: documentPages.page })
    .from(documentPages)
    .where(eq(documentPages.documentId, documentId))
    .orderBy(documentPages.page);
  let next = 1;
  for (const r of stored) {
    if (r.page !== next) break;
    next++;
  }
  return next;
}

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
  const found = await db
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
  return found.map((r) => {
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

/**
 * The characters of a page that the search box searches (issue 17): as in the generated column
 * document_pages.search_vector (migrations/0013_search.sql); the passage is cut from the same text.
 */
const PAGE_SEARCHED_CHARS = 100_000;

export interface PageSearchRow {
  documentId: string;
  name: string;
  courseId: string;
  page: number;
  label: string;
  /** The page's text as far as it is searched. */
  text: string;
}

/**
 * The search box's course documents: the best matching pages of the user's documents in these courses, by rank,
 * then document name and page.
 */
export async function searchPages(
  db: Db,
  userId: string,
  courseIds: string[],
  query: SQL,
  limit: number,
): Promise<PageSearchRow[]> {
  if (!courseIds.length) return [];
  const courses = sql.join(
    courseIds.map((id) => sql`${id}`),
    sql`, `,
  );
  // Ranked on keys only; the text of the few pages kept is read afterwards.
  return rows<PageSearchRow>(
    db,
    sql`SELECT x.document_id AS "documentId", x.name, x.course_id AS "courseId", x.page, x.label,
        left(t.text, ${PAGE_SEARCHED_CHARS}) AS text
      FROM (
        SELECT dp.document_id, d.name, d.course_id, dp.page, dp.label, ts_rank(dp.search_vector, ${query}) AS rank
        FROM document_pages dp JOIN course_documents d ON d.id = dp.document_id
        WHERE d.user_id = ${userId} AND d.course_id IN (${courses}) AND dp.search_vector @@ ${query}
        ORDER BY rank DESC, d.name, dp.page LIMIT ${limit}
      ) x
      JOIN document_pages t ON t.document_id = x.document_id AND t.page = x.page
      ORDER BY x.rank DESC, x.name, x.page`,
  );
}
