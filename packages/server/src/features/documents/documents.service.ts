import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { DOCUMENT_MAX_UPLOAD_BYTES, documentTypeFor, triggersOcrMessage } from '@studybuddy/shared/documents';
import type {
  AskDocumentInput,
  AskDocumentResponse,
  CreateDocumentInput,
  CanvasListingStatus,
  CourseDocumentDto,
  CourseDocumentsResponse,
  DocumentDetailDto,
  DocumentPageDto,
  DocumentStatus,
  SummarizeDocumentInput,
  SummarizeTextInput,
  SummaryResponse,
  TextUnit,
  UploadDocumentResponse,
} from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, knownError, notFound } from '../../platform/errors.ts';
import type { JobQueue } from '../../platform/jobs/job-queue.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import { headOf, sniffType } from '../files/files.service.ts';
import { assertStorageRoom, storeWithinQuota } from '../files/storage-quota.service.ts';
import { CanvasFilesError, type CanvasFilesSource } from './canvas-files.ts';
import type { DocumentAi } from './document-ai.ts';
import { PROCESS_JOB } from './document-processor.ts';
import * as repo from './documents.repository.ts';
import { toDetailDto, toDocumentDto, toQuestionDto } from './documents.mapper.ts';
import type { PageText } from './text-types.ts';
import { storagePathFor, uploadsFolder } from './storage-paths.ts';
import { withTransaction } from '../../db/transaction.ts';
import { profiles } from '../profile/profiles.service.ts';

const CANVAS_LIST_TTL_MS = 2 * 60_000;
const PROCESSING = new Set(['queued', 'extracting', 'ocr', 'summarising']);

/** A file name without control characters, at most 255 characters. */
const cleanName = (name: string) =>
  [...name]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 255) || 'file';

export interface UploadedFileInput {
  courseId: string;
  filename: string;
  mimetype: string;
  /** A local file holding the upload (streamed there, never buffered whole). */
  file: string;
  size: number;
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;

const toPageText = (p: repo.PageRow): PageText => ({
  page: p.page,
  unit: p.unit as TextUnit,
  label: p.label,
  text: p.text,
});

/** Everything the documents routes do, for the signed-in user's own documents only. */
export function createDocumentsService(deps: {
  ctx: AppContext;
  queue: JobQueue;
  ai: DocumentAi;
  canvas: () => CanvasFilesSource;
}) {
  const { ctx, queue, ai } = deps;
  const canvasListings = new Map<string, { at: number; status: CanvasListingStatus }>();
  const quota = createQuota(ctx.db);

  /** Counts one course document added today (QUOTA_DOCUMENTS_PER_DAY) and gives it back when `add` fails. */
  async function countDocument<T>(userId: string, add: () => Promise<T>): Promise<T> {
    const key = `documents:${userId}`;
    await quota.consume(key, {
      what: MSG.quota.documentsPerDay,
      limit: ctx.config.limits.documentsPerDay,
      windowMs: DAY_MS,
      when: MSG.quota.tryTomorrow,
    });
    try {
      return await add();
    } catch (err) {
      await quota.refund(key).catch(() => undefined);
      throw err;
    }
  }

  async function ownDocument(userId: string, id: string): Promise<repo.DocumentRow> {
    const doc = /^[0-9a-f-]{36}$/i.test(id) ? await repo.findOwnDocument(ctx.db, userId, id) : undefined;
    if (!doc) throw notFound();
    return doc;
  }

  /** A document named by id, or by the url the list gave out (requirements §7 sends document_url). */
  async function resolve(userId: string, ref: { document_id?: string; document_url?: string }) {
    if (ref.document_id) return ownDocument(userId, ref.document_id);
    const match = /\/api\/documents\/([0-9a-f-]{36})\/file/i.exec(ref.document_url ?? '');
    if (match) return ownDocument(userId, match[1]!);
    const byCanvasUrl = ref.document_url ? await repo.findOwnByCanvasUrl(ctx.db, userId, ref.document_url) : undefined;
    if (byCanvasUrl) return byCanvasUrl;
    throw notFound();
  }

  async function enqueueProcessing(doc: repo.DocumentRow): Promise<void> {
    const enqueue = async () => {
      await repo.updateDocument(ctx.db, doc.id, {
        status: 'queued',
        errorKind: null,
        errorMessage: null,
        progressPage: null,
        progressPages: null,
      });
      await queue.enqueue(PROCESS_JOB, { documentId: doc.id }, { dedupeKey: `document:${doc.id}`, owner: doc.userId });
    };
    // A Canvas file opened for the first time is imported: its bytes become the student's.
    if (doc.status !== 'not_processed' || doc.storagePath) return enqueue();
    await assertStorageRoom(ctx, doc.userId, doc.size);
    await countDocument(doc.userId, enqueue);
  }

  async function assertOwnCourse(userId: string, courseId: string): Promise<void> {
    const courses = await profiles.courses(ctx.db, userId);
    if (!courses.some((c) => c.id === courseId)) throw badRequest(MSG.courses.courseRequired, 'courseId');
  }

  /** The document row and its processing job, in one transaction. */
  async function createDocument(
    userId: string,
    d: { id: string; courseId: string; name: string; storagePath: string; contentType: string; size: number },
  ): Promise<UploadDocumentResponse> {
    let row: repo.DocumentRow;
    try {
      row = await withTransaction(ctx.db, async (txDb) => {
        const created = await repo.insertDocument(txDb, {
          ...d,
          userId,
          type: documentTypeFor(d.name),
          source: 'local',
          status: 'queued',
        });
        await queue.enqueue(
          PROCESS_JOB,
          { documentId: d.id },
          { dedupeKey: `document:${d.id}`, db: txDb, owner: userId },
        );
        return created;
      });
    } catch (err) {
      // The database away or the disk full: the clear refusal the client may retry on (issue 31).
      const fault = knownError(err);
      if (fault) throw fault;
      ctx.log.error({ err }, 'saving an uploaded document failed');
      throw new AppError(500, 'save_failed', MSG.courses.saveFailed);
    }
    queue.wake();
    return {
      filename: d.name,
      text: '',
      fileType: row.type as UploadDocumentResponse['fileType'],
      ocr: triggersOcrMessage(d.name),
      document: toDocumentDto(row),
    };
  }

  /** Canvas files of the course into our table (cached for a while: the list is polled while processing). */
  async function syncCanvas(userId: string, courseId: string, refresh: boolean): Promise<CanvasListingStatus> {
    const source = deps.canvas();
    if (!(await source.isConnected(userId))) return { connected: false, error: null };
    const key = `${userId}:${courseId}`;
    const cached = canvasListings.get(key);
    if (!refresh && cached && Date.now() - cached.at < CANVAS_LIST_TTL_MS) return cached.status;
    let status: CanvasListingStatus = { connected: true, error: null };
    try {
      const files = await source.listCourseFiles(userId, courseId);
      await repo.upsertCanvasFiles(
        ctx.db,
        userId,
        courseId,
        files.map((f) => ({
          canvasFileId: f.id,
          name: f.displayName || f.filename,
          size: f.size,
          url: f.url,
          contentType: f.contentType,
          moduleName: f.moduleName,
          createdAt: f.createdAt ? new Date(f.createdAt) : null,
          type: documentTypeFor(f.displayName || f.filename),
        })),
        randomUUID,
      );
    } catch (err) {
      if (!(err instanceof CanvasFilesError)) ctx.log.warn({ err }, 'listing Canvas files failed');
      const kind = err instanceof CanvasFilesError ? err.kind : 'failed';
      if (kind === 'forbidden') {
        status.error = { kind: 'forbidden', messages: [MSG.courses.canvasForbidden, MSG.courses.canStillUpload] };
      } else if (kind === 'not_found' || kind === 'not_connected') {
        // A course added by hand has no Canvas counterpart: nothing to list, nothing wrong.
        status = { connected: kind !== 'not_connected', error: null };
      } else {
        status.error = { kind: 'unreachable', messages: [MSG.courses.canvasUnreachable] };
      }
    }
    canvasListings.set(key, { at: Date.now(), status });
    return status;
  }

  return {
    async listCourse(userId: string, courseId: string, refresh = false): Promise<CourseDocumentsResponse> {
      const canvas = await syncCanvas(userId, courseId, refresh);
      const rows = await repo.listCourseDocuments(ctx.db, userId, courseId);
      return { documents: rows.map(toDocumentDto), canvas };
    },

    async detail(userId: string, id: string): Promise<DocumentDetailDto> {
      const doc = await ownDocument(userId, id);
      return toDetailDto(doc, await repo.listQuestions(ctx.db, doc.id));
    },

    async pages(userId: string, id: string): Promise<DocumentPageDto[]> {
      const doc = await ownDocument(userId, id);
      return (await repo.listPages(ctx.db, doc.id)).map((p) => ({ ...toPageText(p) }));
    },

    async openFile(
      userId: string,
      id: string,
    ): Promise<{ name: string; contentType: string; size: number; body: Readable }> {
      const doc = await ownDocument(userId, id);
      const obj = doc.storagePath ? await ctx.storage.get(doc.storagePath) : null;
      if (!obj) throw notFound();
      return { name: doc.name, contentType: obj.meta.contentType, size: obj.meta.size, body: obj.body };
    },

    /**
     * Stores any file for one of the user's courses and queues its processing, atomically; within the
     * documents-per-day and storage quotas (a refused file leaves nothing behind).
     */
    /** Refuses an upload that cannot fit before its body is read (its declared length bounds the file). */
    async assertUploadRoom(userId: string, declaredBytes: number): Promise<void> {
      await assertStorageRoom(ctx, userId, Math.min(declaredBytes, DOCUMENT_MAX_UPLOAD_BYTES));
    },

    async upload(userId: string, file: UploadedFileInput): Promise<UploadDocumentResponse> {
      await assertOwnCourse(userId, file.courseId);
      if (!file.size) throw badRequest(MSG.courses.fileRequired, 'file');
      await assertStorageRoom(ctx, userId, file.size);
      return countDocument(userId, async () => {
        const id = randomUUID();
        const name = cleanName(file.filename);
        const storagePath = storagePathFor(userId, id, name);
        // From the bytes (their first ones), never the type the client declared.
        const contentType = (await sniffType(await headOf({ file: file.file }))).mime;
        return storeWithinQuota(ctx, userId, storagePath, file.size, async () => {
          try {
            await ctx.storage.putFile(storagePath, file.file, { contentType, customMetadata: { originalName: name } });
          } catch (err) {
            // The file store away or the disk full: the clear refusal the client may retry on (issue 31).
            const fault = knownError(err);
            if (fault) throw fault;
            ctx.log.error({ err }, 'storing an uploaded document failed');
            throw new AppError(500, 'upload_failed', MSG.courses.uploadFailed);
          }
          try {
            return await createDocument(userId, {
              id,
              courseId: file.courseId,
              name,
              storagePath,
              contentType,
              size: file.size,
            });
          } catch (err) {
            await ctx.storage.delete(storagePath).catch(() => undefined);
            throw err;
          }
        });
      });
    },

    /** A document from a finished upload to the course-document target (resumable for large files). */
    async createFromUpload(userId: string, input: CreateDocumentInput): Promise<UploadDocumentResponse> {
      await assertOwnCourse(userId, input.courseId);
      // The file itself was counted against storage when it was uploaded.
      return countDocument(userId, async () => {
        if (!input.path.startsWith(`${uploadsFolder(userId)}/`)) throw notFound();
        const meta = await ctx.storage.head(input.path);
        if (!meta) throw notFound();
        return createDocument(userId, {
          id: randomUUID(),
          courseId: input.courseId,
          name: cleanName(input.name),
          storagePath: input.path,
          contentType: meta.contentType,
          size: meta.size,
        });
      });
    },

    /** Queues a document that is not processed yet (Canvas files on first open) or failed before. */
    async process(userId: string, id: string): Promise<CourseDocumentDto> {
      const doc = await ownDocument(userId, id);
      if (doc.status === 'not_processed' || doc.status === 'failed') await enqueueProcessing(doc);
      return toDocumentDto((await repo.findDocument(ctx.db, doc.id))!);
    },

    async summarizeText(input: SummarizeTextInput): Promise<SummaryResponse> {
      // Sections and summary are worked out on the NLP worker, within its time budget.
      const result = await ai.summariseText(input.document_name ?? 'Document', input.text).catch((err: unknown) => {
        if (err instanceof AppError) throw err;
        ctx.log.error({ err }, 'summarising a text failed');
        throw new AppError(503, 'summary_failed', MSG.courses.summaryError);
      });
      if (!result.summary) throw new AppError(422, 'no_summary', MSG.courses.summaryFailed(MSG.courses.noTextFound));
      return { summary: result.summary, key_terms: result.keyTerms, engine: result.engine };
    },

    /** The stored summary; a document without one is processed (or summarised) first. */
    async summarizeDocument(
      userId: string,
      input: SummarizeDocumentInput,
    ): Promise<{ status: number; body: SummaryResponse | { status: DocumentStatus; document: CourseDocumentDto } }> {
      const doc = await resolve(userId, input);
      if (doc.summary) {
        return {
          status: 200,
          body: {
            summary: doc.summary,
            key_terms: doc.keyTerms,
            engine: (doc.summaryEngine ?? 'offline') as SummaryResponse['engine'],
          },
        };
      }
      if (doc.status === 'failed') {
        throw new SummaryFailure(doc.errorMessage ?? MSG.courses.summaryError, doc.errorKind);
      }
      if (doc.status !== 'done') {
        if (doc.status === 'not_processed') await enqueueProcessing(doc);
        const fresh = (await repo.findDocument(ctx.db, doc.id))!;
        const document = toDocumentDto(fresh);
        return { status: 202, body: { status: document.status, document } };
      }
      const pages = (await repo.listPages(ctx.db, doc.id)).map(toPageText);
      if (!pages.length) throw new SummaryFailure(MSG.courses.summaryFailed(MSG.courses.noTextType), null);
      const result = await ai.summarise(doc.name, pages);
      if (!result.summary) throw new SummaryFailure(MSG.courses.summaryError, null);
      await repo.saveSummary(ctx.db, doc.id, result);
      return { status: 200, body: { summary: result.summary, key_terms: result.keyTerms, engine: result.engine } };
    },

    async ask(userId: string, input: AskDocumentInput): Promise<AskDocumentResponse> {
      if (!input.document_id && !input.document_url && input.document_content) {
        // Read (HTML or not), cut into sections and indexed on the NLP worker, within its time budget.
        const content = input.document_content;
        const key = `content:${createHash('sha256').update(content).digest('hex')}`;
        const out = await ai.answerContent(key, input.document_name ?? 'Document', content, input.question);
        return { ...out, question: null };
      }
      const doc = await resolve(userId, input);
      if (PROCESSING.has(doc.status) || doc.status === 'not_processed') {
        throw new AppError(409, 'not_ready', MSG.courses.notReadyForQuestions);
      }
      const pages = (await repo.listPages(ctx.db, doc.id)).map(toPageText);
      if (!pages.length) throw new AppError(422, 'no_text', MSG.courses.noTextForQuestions);
      const out = await ai.answer(`${doc.id}:${doc.updatedAt.getTime()}`, doc.name, pages, input.question);
      const stored = await repo.insertQuestion(ctx.db, {
        id: randomUUID(),
        documentId: doc.id,
        userId,
        question: input.question,
        answer: out.answer,
        shortAnswer: out.shortAnswer,
        citations: out.citations,
        found: out.found,
        engine: out.engine,
      });
      return { ...out, question: toQuestionDto(stored) };
    },

    syncCanvas,
    ownDocument,
  };
}

/** A summary that cannot be made, with the §7 call 5 flags. */
export class SummaryFailure extends AppError {
  constructor(
    message: string,
    readonly errorKind: string | null,
  ) {
    super(422, errorKind ?? 'summary_failed', message);
  }
}
