import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DOCUMENT_MAX_UPLOAD_BYTES, documentTypeFor, triggersOcrMessage } from '@studybuddy/shared/documents';
import type {
  CourseDocumentsResponse,
  CreateDocumentInput,
  FetchCourseFilesInput,
  UploadDocumentResponse,
} from '@studybuddy/shared/documents-api';
import type { FetchCourseFilesAnswer } from '@studybuddy/shared/documents-responses';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, knownError, notFound } from '../../platform/errors.ts';
import { headOf, sniffType } from '../files/files.service.ts';
import { assertStorageRoom, storeWithinQuota } from '../files/storage-quota.service.ts';
import type { CanvasSync } from './canvas-sync.ts';
import { fetchCourseFiles } from './course-files.ts';
import { assertOwnCourse, ownDocument } from './document-access.ts';
import type { DocumentQuota } from './document-quota.ts';
import { insertDocument, listCourseDocuments } from './documents.repository.ts';
import { toDocumentDto } from './documents.mapper.ts';
import type { ProcessingService } from './processing.service.ts';
import { storagePathFor, uploadsFolder } from './storage-paths.ts';

export interface UploadDeps {
  ctx: AppContext;
  processing: ProcessingService;
  canvas: CanvasSync;
  quota: DocumentQuota;
}

export type UploadService = ReturnType<typeof createUploadService>;

export interface UploadedFileInput {
  courseId: string;
  filename: string;
  mimetype: string;
  /** A local file holding the upload (streamed there, never buffered whole). */
  file: string;
  size: number;
}

/** A file name without control characters, at most 255 characters. */
const cleanName = (name: string) =>
  [...name]
    .filter((ch) => ch.charCodeAt(0) > 0x1f && ch.charCodeAt(0) !== 0x7f)
    .join('')
    .trim()
    .slice(0, 255) || 'file';

type NewDocument = {
  id: string;
  courseId: string;
  name: string;
  storagePath: string;
  contentType: string;
  size: number;
};

/** The document row and its processing job, in one transaction. */
async function createDocument(deps: UploadDeps, userId: string, d: NewDocument): Promise<UploadDocumentResponse> {
  const { ctx, processing } = deps;
  const type = documentTypeFor(d.name);
  const row = await withTransaction(ctx.db, async (txDb) => {
    const created = await insertDocument(txDb, { ...d, userId, type, source: 'local', status: 'queued' });
    await processing.queueNew(txDb, { id: d.id, userId });
    return created;
  }).catch((err: unknown) => {
    // The database away or the disk full: the clear refusal the client may retry on (issue 31).
    const fault = knownError(err);
    if (fault) throw fault;
    ctx.log.error({ err }, 'saving an uploaded document failed');
    throw new AppError(500, 'save_failed', MSG.courses.saveFailed);
  });
  processing.wake();
  return {
    filename: d.name,
    text: '',
    fileType: row.type as UploadDocumentResponse['fileType'],
    ocr: triggersOcrMessage(d.name),
    document: toDocumentDto(row),
  };
}

/** Stores an uploaded file and makes it a document; the stored file goes again when the document is not made. */
async function storeAndCreate(deps: UploadDeps, userId: string, file: UploadedFileInput) {
  const { ctx } = deps;
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
    const d = { id, courseId: file.courseId, name, storagePath, contentType, size: file.size };
    return createDocument(deps, userId, d).catch(async (err: unknown) => {
      await ctx.storage.delete(storagePath).catch(() => undefined);
      throw err;
    });
  });
}

/** Upload: a course's documents (uploads and Canvas files), files becoming documents, and their download. */
export function createUploadService(deps: UploadDeps) {
  const { ctx, canvas, quota } = deps;

  return {
    /** The course's documents; `refresh` asks Canvas again. */
    async listCourse(userId: string, courseId: string, refresh = false): Promise<CourseDocumentsResponse> {
      const listing = await canvas.sync(userId, courseId, refresh);
      const rows = await listCourseDocuments(ctx.db, userId, courseId);
      return { documents: rows.map(toDocumentDto), canvas: listing };
    },

    async openFile(
      userId: string,
      id: string,
    ): Promise<{ name: string; contentType: string; size: number; body: Readable }> {
      const doc = await ownDocument(ctx.db, userId, id);
      const obj = doc.storagePath ? await ctx.storage.get(doc.storagePath) : null;
      if (!obj) throw notFound();
      return { name: doc.name, contentType: obj.meta.contentType, size: obj.meta.size, body: obj.body };
    },

    /**
     * Stores any file for one of the user's courses and queues its processing, atomically; within the
     * documents-per-day and storage quotas (a refused file leaves nothing behind). An upload that cannot fit is
     * refused before its body is read (its declared length bounds the file); `read` streams the body to a file
     * of ours, which is removed afterwards.
     */
    async upload(
      userId: string,
      declaredBytes: number,
      read: (tmpFile: string) => Promise<UploadedFileInput>,
    ): Promise<UploadDocumentResponse> {
      await assertStorageRoom(ctx, userId, Math.min(declaredBytes, DOCUMENT_MAX_UPLOAD_BYTES));
      const tmpDir = path.join(ctx.config.dataDir, 'tmp');
      await mkdir(tmpDir, { recursive: true });
      const tmpFile = path.join(tmpDir, `upload-${randomUUID()}`);
      try {
        const file = await read(tmpFile);
        await assertOwnCourse(ctx.db, userId, file.courseId);
        if (!file.size) throw badRequest(MSG.courses.fileRequired, 'file');
        await assertStorageRoom(ctx, userId, file.size);
        return await quota.count(userId, () => storeAndCreate(deps, userId, file));
      } finally {
        await rm(tmpFile, { force: true });
      }
    },

    /** A document from a finished upload to the course-document target (resumable for large files). */
    async createFromUpload(userId: string, input: CreateDocumentInput): Promise<UploadDocumentResponse> {
      await assertOwnCourse(ctx.db, userId, input.courseId);
      // The file itself was counted against storage when it was uploaded.
      return quota.count(userId, async () => {
        if (!input.path.startsWith(`${uploadsFolder(userId)}/`)) throw notFound();
        const meta = await ctx.storage.head(input.path);
        if (!meta) throw notFound();
        return createDocument(deps, userId, {
          id: randomUUID(),
          courseId: input.courseId,
          name: cleanName(input.name),
          storagePath: input.path,
          contentType: meta.contentType,
          size: meta.size,
        });
      });
    },

    /** §7 call 3: the course's Canvas files, or one file's content (202 while it is processed). */
    fetchCourseFiles: (userId: string, input: FetchCourseFilesInput): Promise<FetchCourseFilesAnswer> =>
      fetchCourseFiles({ db: ctx.db, canvas, processing: deps.processing }, userId, input),
  };
}
