import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { rows } from '../../db/rows.ts';

/**
 * The search box's course documents (issue 17): pages of the user's own documents by their words. A page's words
 * are its first 100,000 characters (document_pages.search_vector, migrations/0013_search.sql); the passage is cut
 * from the same text.
 */

/** The characters of a page that are searched (as in the migration's generated column). */
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

/** The best matching pages of the user's documents in these courses, by rank, then document name and page. */
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
