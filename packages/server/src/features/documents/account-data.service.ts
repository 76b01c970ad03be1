import type { Readable } from 'node:stream';
import type { AppContext } from '../../platform/context.ts';
import { listPages } from './document-pages.repository.ts';
import { questionsOf } from './document-questions.repository.ts';
import { documentsOf, findOwnDocument } from './documents.repository.ts';

/** A course document of the student as their data download describes it. */
export interface DocumentExport {
  id: string;
  courseId: string;
  name: string;
  type: string;
  source: 'local' | 'canvas';
  contentType: string;
  size: number;
  status: string;
  summary: string | null;
  keyTerms: string[];
  createdAt: string;
  questions: { question: string; answer: string; askedAt: string }[];
  /** Whether the stored file is there to include. */
  hasFile: boolean;
}

/** The student's course documents (metadata, summary, their questions); the file and text come one at a time. */
export async function documentsForExport(ctx: AppContext, userId: string): Promise<DocumentExport[]> {
  const rows = await documentsOf(ctx.db, userId);
  const out: DocumentExport[] = [];
  for (const r of rows) {
    const questions = await questionsOf(ctx.db, userId, r.id);
    out.push({
      id: r.id,
      courseId: r.courseId,
      name: r.name,
      type: r.type,
      source: r.source,
      contentType: r.contentType,
      size: r.size,
      status: r.status,
      summary: r.summary,
      keyTerms: r.keyTerms,
      createdAt: r.createdAt.toISOString(),
      questions: questions.map((q) => ({ question: q.question, answer: q.answer, askedAt: q.createdAt.toISOString() })),
      hasFile: r.storagePath !== null,
    });
  }
  return out;
}

/** The extracted text of one of the student's documents, page by page ('' when none was extracted). */
export async function documentTextForExport(ctx: AppContext, userId: string, documentId: string): Promise<string> {
  if (!(await findOwnDocument(ctx.db, userId, documentId))) return '';
  const pages = await listPages(ctx.db, documentId);
  return pages.map((p) => `--- ${p.label} ---\n${p.text}`).join('\n\n');
}

/** A stream of the stored file of one of the student's documents; null when there is none. */
export async function documentFileForExport(
  ctx: AppContext,
  userId: string,
  documentId: string,
): Promise<Readable | null> {
  const doc = await findOwnDocument(ctx.db, userId, documentId);
  if (!doc?.storagePath) return null;
  return (await ctx.storage.get(doc.storagePath))?.body ?? null;
}
