import { and, asc, eq } from 'drizzle-orm';
import type { CitationDto, ShortAnswerDto } from '@studybuddy/shared/documents-api';
import type { Db } from '../../db/connect.ts';
import { documentQuestions } from '../../db/schema/documents.ts';

/** The document_questions rows: what students asked about their documents, with the answers. */

export type QuestionRow = typeof documentQuestions.$inferSelect;

export async function insertQuestion(
  db: Db,
  row: {
    id: string;
    documentId: string;
    userId: string;
    question: string;
    answer: string;
    shortAnswer: ShortAnswerDto | null;
    citations: CitationDto[];
    found: boolean;
    engine: string;
  },
): Promise<QuestionRow> {
  const [created] = await db.insert(documentQuestions).values(row).returning();
  return created!;
}

export async function listQuestions(db: Db, documentId: string): Promise<QuestionRow[]> {
  return db
    .select()
    .from(documentQuestions)
    .where(eq(documentQuestions.documentId, documentId))
    .orderBy(asc(documentQuestions.createdAt));
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
