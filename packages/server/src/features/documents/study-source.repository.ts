import { and, asc, eq, gte, lte } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { courseDocuments, documentPages } from '../../db/schema/documents.ts';

/** SQL of study-source.service.ts: a student's document and its pages, read for flashcards and quizzes. */

export async function findStudyDocument(db: Db, userId: string, id: string) {
  const [row] = await db
    .select({
      id: courseDocuments.id,
      name: courseDocuments.name,
      status: courseDocuments.status,
      errorMessage: courseDocuments.errorMessage,
    })
    .from(courseDocuments)
    .where(and(eq(courseDocuments.id, id), eq(courseDocuments.userId, userId)));
  return row;
}

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
