import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DocumentErrorKind, DocumentStatus } from '@studybuddy/shared/documents-api';
import type { Db } from '../../db/connect.ts';
import { courseDocuments } from '../../db/schema/documents.ts';

/** The course_documents rows: a student's documents, their status and summary. */

export type DocumentRow = typeof courseDocuments.$inferSelect;
export type NewDocumentRow = typeof courseDocuments.$inferInsert;

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

/** A student's document as flashcards and quizzes see it: its state, without its text. */
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
