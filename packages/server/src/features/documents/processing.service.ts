import type { CourseDocumentDto } from '@studybuddy/shared/documents-api';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import type { JobQueue } from '../../platform/jobs/job-queue.ts';
import { assertStorageRoom } from '../files/storage-quota.service.ts';
import type { CanvasFilesSource } from './canvas-files.ts';
import type { DocumentAi } from './document-ai.ts';
import { ownDocument } from './document-access.ts';
import { PROCESS_JOB, processJob } from './document-processor.ts';
import type { DocumentQuota } from './document-quota.ts';
import { findDocument, updateDocument, type DocumentRow } from './documents.repository.ts';
import { toDocumentDto } from './documents.mapper.ts';
import type { WorkerLane } from './extraction/worker-lane.ts';

export interface ProcessingDeps {
  ctx: AppContext;
  /** The feature's job queue: the document job is defined on it here. */
  queue: JobQueue;
  /** Extraction and OCR, off the request thread. */
  extractLane: WorkerLane;
  /** Summaries of whole documents (on a lane of their own: they may take minutes). */
  ai: DocumentAi;
  canvas: CanvasFilesSource;
  quota: DocumentQuota;
}

export type ProcessingService = ReturnType<typeof createProcessingService>;

const dedupeKey = (documentId: string) => `document:${documentId}`;

/**
 * Processing: the queue's document job (the bytes fetched, text extracted page by page with OCR where a page has
 * none, a summary) and what queues it.
 */
export function createProcessingService(deps: ProcessingDeps) {
  const { ctx, queue } = deps;
  queue.define(processJob(deps));

  /** Queues a document again (status back to queued); a Canvas file opened for the first time is imported. */
  async function enqueue(doc: DocumentRow): Promise<void> {
    const requeue = async () => {
      await updateDocument(ctx.db, doc.id, {
        status: 'queued',
        errorKind: null,
        errorMessage: null,
        progressPage: null,
        progressPages: null,
      });
      await queue.enqueue(PROCESS_JOB, { documentId: doc.id }, { dedupeKey: dedupeKey(doc.id), owner: doc.userId });
    };
    // The imported file's bytes become the student's: within their storage and documents-per-day quotas.
    if (doc.status !== 'not_processed' || doc.storagePath) return requeue();
    await assertStorageRoom(ctx, doc.userId, doc.size);
    await deps.quota.count(doc.userId, requeue);
  }

  return {
    enqueue,

    /** A new document's job, written in the transaction that writes its row; `wake` once that commits. */
    async queueNew(tx: Db, doc: { id: string; userId: string }): Promise<void> {
      await queue.enqueue(
        PROCESS_JOB,
        { documentId: doc.id },
        { dedupeKey: dedupeKey(doc.id), db: tx, owner: doc.userId },
      );
    },

    wake: () => queue.wake(),

    /** Queues a document that is not processed yet (Canvas files on first open) or failed before. */
    async process(userId: string, id: string): Promise<CourseDocumentDto> {
      const doc = await ownDocument(ctx.db, userId, id);
      if (doc.status === 'not_processed' || doc.status === 'failed') await enqueue(doc);
      return toDocumentDto((await findDocument(ctx.db, doc.id))!);
    },
  };
}
