import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { CitationDto, DocumentErrorKind, DocumentStatus, ShortAnswerDto } from '@studybuddy/shared/documents-api';
import type { Db } from '../../db/connect.ts';
import { courseDocuments, documentPages, documentQuestions } from '../../db/schema/documents.ts';
import type { ExtractedPage } from './extraction/extract-types.ts';

export type DocumentRow = typeof courseDocuments.$inferSelect;
export type NewDocumentRow = typeof courseDocuments.$inferInsert;
export type QuestionRow = typeof documentQuestions.$inferSelect;
export type PageRow = typeof documentPages.$inferSelect;

export async function insertDocument(db: Db, row: NewDocumentRow): Promise<DocumentRow> {
  const [created] = await db.insert(courseDocuments).values(row).returning();
  return created!;
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(courseDocuments).where(eq(courseDocuments.id, id)).limit(1);
  return row;
}

/** Only own data (requirements §6): another user's document is as missing as one that does not exist. */
export async function findOwnDocument(db: Db, userId: string, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(courseDocuments)
    .where(and(eq(courseDocuments.id, id), eq(courseDocuments.userId, userId)))
    .limit(1);
  return row;
}

/** A Canvas document by the download address the list showed (§7 calls 5 and 7 send document_url). */
export async function findOwnByCanvasUrl(db: Db, userId: string, url: string): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(courseDocuments)
    .where(and(eq(courseDocuments.userId, userId), eq(courseDocuments.canvasUrl, url)))
    .limit(1);
  return row;
}

export async function listCourseDocuments(db: Db, userId: string, courseId: string): Promise<DocumentRow[]> {
  return db
    .select()
    .from(courseDocuments)
    .where(and(eq(courseDocuments.userId, userId), eq(courseDocuments.courseId, courseId)))
    .orderBy(desc(courseDocuments.createdAt), asc(courseDocuments.name));
}

export interface CanvasFileRow {
  canvasFileId: string;
  name: string;
  size: number;
  url: string;
  contentType: string;
  moduleName: string | null;
  createdAt: Date | null;
  type: string;
}

/** Records the Canvas files of a course (one row per file, updated in place), returning their rows. */
export async function upsertCanvasFiles(
  db: Db,
  userId: string,
  courseId: string,
  files: CanvasFileRow[],
  newId: () => string,
): Promise<DocumentRow[]> {
  if (!files.length) return [];
  return db.transaction(async (tx) => {
    for (const f of files) {
      await tx
        .insert(courseDocuments)
        .values({
          id: newId(),
          userId,
          courseId,
          name: f.name,
          type: f.type,
          source: 'canvas',
          contentType: f.contentType,
          size: f.size,
          canvasFileId: f.canvasFileId,
          canvasUrl: f.url,
          moduleName: f.moduleName,
          canvasCreatedAt: f.createdAt,
          status: 'not_processed',
        })
        .onConflictDoUpdate({
          target: [courseDocuments.userId, courseDocuments.courseId, courseDocuments.canvasFileId],
          targetWhere: sql`${courseDocuments.canvasFileId} is not null`,
          set: {
            name: f.name,
            type: f.type,
            size: f.size,
            canvasUrl: f.url,
            moduleName: sql`coalesce(${f.moduleName}, ${courseDocuments.moduleName})`,
            contentType: f.contentType,
          },
        });
    }
    return tx
      .select()
      .from(courseDocuments)
      .where(
        and(
          eq(courseDocuments.userId, userId),
          eq(courseDocuments.courseId, courseId),
          inArray(
            courseDocuments.canvasFileId,
            files.map((f) => f.canvasFileId),
          ),
        ),
      );
  });
}

export interface StatusPatch {
  status?: DocumentStatus;
  progressPage?: number | null;
  progressPages?: number | null;
  errorKind?: DocumentErrorKind | null;
  errorMessage?: string | null;
  storagePath?: string;
  size?: number;
  contentType?: string;
  ocrUsed?: boolean;
  processed?: boolean;
}

export async function updateDocument(db: Db, id: string, patch: StatusPatch): Promise<void> {
  await db
    .update(courseDocuments)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(courseDocuments.id, id));
}

/** Sets a processing status only while the document is not done (a late event never undoes completion). */
export async function markProcessing(db: Db, id: string, patch: StatusPatch): Promise<void> {
  await db
    .update(courseDocuments)
    .set({ ...patch, updatedAt: new Date() })
    .where(and(eq(courseDocuments.id, id), sql`${courseDocuments.status} <> 'done'`));
}

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

export async function listPages(db: Db, documentId: string): Promise<PageRow[]> {
  return db.select().from(documentPages).where(eq(documentPages.documentId, documentId)).orderBy(documentPages.page);
}

export async function deletePages(db: Db, documentId: string): Promise<void> {
  await db.delete(documentPages).where(eq(documentPages.documentId, documentId));
}

/** The first page not yet stored (pages are written in order, so this is where a resumed job continues). */
export async function nextMissingPage(db: Db, documentId: string): Promise<number> {
  const rows = await db
    .select({ page: documentPages.page })
    .from(documentPages)
    .where(eq(documentPages.documentId, documentId))
    .orderBy(documentPages.page);
  let next = 1;
  for (const r of rows) {
    if (r.page !== next) break;
    next++;
  }
  return next;
}

export interface Completion {
  text: string;
  summary: string | null;
  keyTerms: string[];
  summaryEngine: 'offline' | 'llm' | null;
  ocrUsed: boolean;
}

/** The finished document in one write: text, summary, processed, done. */
export async function completeDocument(db: Db, id: string, c: Completion): Promise<void> {
  await db
    .update(courseDocuments)
    .set({
      text: c.text,
      summary: c.summary,
      keyTerms: c.keyTerms,
      summaryEngine: c.summaryEngine,
      ocrUsed: c.ocrUsed,
      processed: true,
      status: 'done',
      progressPage: null,
      progressPages: null,
      errorKind: null,
      errorMessage: null,
      updatedAt: new Date(),
    })
    .where(eq(courseDocuments.id, id));
}

export async function saveSummary(
  db: Db,
  id: string,
  s: { summary: string; keyTerms: string[]; engine: 'offline' | 'llm' },
): Promise<void> {
  await db
    .update(courseDocuments)
    .set({ summary: s.summary, keyTerms: s.keyTerms, summaryEngine: s.engine, updatedAt: new Date() })
    .where(eq(courseDocuments.id, id));
}

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

/** Pages of every processed document of a course (search across a course). */
export async function listCoursePages(
  db: Db,
  userId: string,
  courseId: string,
): Promise<(PageRow & { name: string })[]> {
  return db
    .select({
      documentId: documentPages.documentId,
      page: documentPages.page,
      unit: documentPages.unit,
      label: documentPages.label,
      text: documentPages.text,
      method: documentPages.method,
      name: courseDocuments.name,
    })
    .from(documentPages)
    .innerJoin(courseDocuments, eq(courseDocuments.id, documentPages.documentId))
    .where(
      and(
        eq(courseDocuments.userId, userId),
        eq(courseDocuments.courseId, courseId),
        eq(courseDocuments.status, 'done'),
      ),
    )
    .orderBy(courseDocuments.name, documentPages.page);
}
