import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { courseDocuments, documentQuestions } from '../../db/schema/documents.ts';

/** SQL over the documents tables for one student's data download. */

export type OwnDocumentRow = Pick<
  typeof courseDocuments.$inferSelect,
  | 'id'
  | 'courseId'
  | 'name'
  | 'type'
  | 'source'
  | 'contentType'
  | 'size'
  | 'storagePath'
  | 'status'
  | 'summary'
  | 'keyTerms'
  | 'createdAt'
>;

/** Every course document of the student, oldest first (without the text: pages are read one document at a time). */
export async function documentsOf(db: Db, userId: string): Promise<OwnDocumentRow[]> {
  return db
    .select({
      id: courseDocuments.id,
      courseId: courseDocuments.courseId,
      name: courseDocuments.name,
      type: courseDocuments.type,
      source: courseDocuments.source,
      contentType: courseDocuments.contentType,
      size: courseDocuments.size,
      storagePath: courseDocuments.storagePath,
      status: courseDocuments.status,
      summary: courseDocuments.summary,
      keyTerms: courseDocuments.keyTerms,
      createdAt: courseDocuments.createdAt,
    })
    .from(courseDocuments)
    .where(eq(courseDocuments.userId, userId))
    .orderBy(asc(courseDocuments.createdAt), asc(courseDocuments.id));
}

/** The questions the student asked about one of their documents, with the answers. */
export async function questionsOf(db: Db, userId: string, documentId: string) {
  return db
    .select({
      question: documentQuestions.question,
      answer: documentQuestions.answer,
      createdAt: documentQuestions.createdAt,
    })
    .from(documentQuestions)
    .where(and(eq(documentQuestions.documentId, documentId), eq(documentQuestions.userId, userId)))
    .orderBy(asc(documentQuestions.createdAt));
}
