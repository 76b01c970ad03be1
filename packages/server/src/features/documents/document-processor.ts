import type { Readable } from 'node:stream';
import { MSG } from '@studybuddy/shared/messages';
import type { DocumentErrorKind } from '@studybuddy/shared/documents-api';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { PermanentJobError, YIELD, type JobContext, type JobDefinition } from '../../platform/jobs/job-queue.ts';
import { storeWithinQuota } from '../files/storage-quota.service.ts';
import { CanvasFilesError, type CanvasFilesSource } from './canvas-files.ts';
import type { DocumentAi } from './document-ai.ts';
import { deletePages, listPages, nextMissingPage, upsertPages } from './document-pages.repository.ts';
import * as repo from './documents.repository.ts';
import { toPageText } from './documents.mapper.ts';
import {
  ExtractionError,
  extractKindFor,
  type ExtractedPage,
  type ExtractResult,
  type WorkerEvent,
} from './extraction/extract-types.ts';
import type { WorkerLane } from './extraction/worker-lane.ts';
import { storagePathFor } from './storage-paths.ts';

export const PROCESS_JOB = 'documents.process';

export interface ProcessPayload {
  documentId: string;
}

/** A failure the user sees on the document, with its kind; never retried. */
class DocumentFailure extends PermanentJobError {
  constructor(
    readonly kind: DocumentErrorKind,
    message: string,
  ) {
    super(message);
  }
}

interface Deps {
  ctx: AppContext;
  extractLane: WorkerLane;
  ai: DocumentAi;
  canvas: CanvasFilesSource;
}

/** Canvas content was fetched but not saved to the document (retried; requirements §8 text once it gives up). */
class ContentNotSaved extends Error {}

/** Tells the owner's open tabs that the document changed (they refetch it). */
function announce(ctx: AppContext, doc: repo.DocumentRow) {
  ctx.realtime?.toUsers([doc.userId], { type: 'document.changed', documentId: doc.id, courseId: doc.courseId });
}

/** What the worker reads: a stored file on this machine (it opens it itself) or the bytes, transferred. */
type FileSource = { file: string } | { bytes: ArrayBuffer };

/** The bytes as an ArrayBuffer to transfer: the Buffer's own when it spans all of it, else a copy. */
function transferable(bytes: Uint8Array): ArrayBuffer {
  const whole =
    bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  // A Buffer's own slice() is a view on the same (pooled) memory: copy through Uint8Array's.
  return whole ? (bytes.buffer as ArrayBuffer) : Uint8Array.prototype.slice.call(bytes).buffer;
}

/** Reads a stored object into one buffer of its size: no list of chunks, no concatenated copy. */
async function readWhole(body: Readable, size: number): Promise<ArrayBuffer> {
  let out = new Uint8Array(size);
  let at = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    if (at + chunk.length > out.length) {
      const grown = new Uint8Array(Math.max(out.length * 2, at + chunk.length));
      grown.set(out.subarray(0, at));
      out = grown;
    }
    out.set(chunk, at);
    at += chunk.length;
  }
  return at === out.length ? out.buffer : out.slice(0, at).buffer;
}

async function sourceOf(deps: Deps, doc: repo.DocumentRow): Promise<{ source: FileSource; contentType: string }> {
  const { ctx, canvas } = deps;
  if (doc.storagePath) {
    // On local disk the worker reads the file itself: 25 MB uploads never pass through this thread's memory.
    const meta = ctx.storage.localFile ? await ctx.storage.head(doc.storagePath) : null;
    if (meta) return { source: { file: ctx.storage.localFile!(doc.storagePath) }, contentType: meta.contentType };
    const obj = await ctx.storage.get(doc.storagePath);
    if (!obj) throw new DocumentFailure('error', MSG.courses.processingError);
    return { source: { bytes: await readWhole(obj.body, obj.meta.size) }, contentType: obj.meta.contentType };
  }
  if (doc.source !== 'canvas' || !doc.canvasFileId) throw new DocumentFailure('error', MSG.courses.processingError);
  let fetched = false;
  try {
    const file = await canvas.downloadFile(doc.userId, doc.courseId, doc.canvasFileId);
    fetched = true;
    const storagePath = storagePathFor(doc.userId, doc.id, doc.name);
    await storeWithinQuota(ctx, doc.userId, storagePath, file.bytes.length, () =>
      ctx.storage.put(storagePath, file.bytes, { contentType: file.contentType }),
    );
    await repo.updateDocument(ctx.db, doc.id, {
      storagePath,
      size: file.bytes.length,
      contentType: file.contentType,
    });
    return { source: { bytes: transferable(file.bytes) }, contentType: file.contentType };
  } catch (err) {
    if (err instanceof AppError && err.code === 'quota_exceeded') throw new DocumentFailure('error', err.message);
    if (fetched) {
      ctx.log.error({ err, documentId: doc.id }, 'saving fetched Canvas content failed');
      throw new ContentNotSaved('fetched Canvas content not saved', { cause: err });
    }
    if (err instanceof CanvasFilesError) {
      if (err.kind === 'forbidden' || err.kind === 'auth' || err.kind === 'not_connected') {
        throw new DocumentFailure('access_denied', MSG.courses.accessDenied);
      }
      if (err.kind === 'not_found') {
        throw new DocumentFailure('error', MSG.courses.fetchContentFailed(err.message));
      }
    }
    throw err;
  }
}

async function process(deps: Deps, payload: ProcessPayload, job: JobContext): Promise<void | typeof YIELD> {
  const { ctx, extractLane, ai } = deps;
  const doc = await repo.findDocument(ctx.db, payload.documentId);
  if (!doc || doc.status === 'done') return;
  await repo.markProcessing(ctx.db, doc.id, { status: 'extracting', errorKind: null, errorMessage: null });
  announce(ctx, doc);

  const { source, contentType } = await sourceOf(deps, doc);
  const kind = extractKindFor(doc.name, contentType);
  const startPage = kind === 'pdf' ? await nextMissingPage(ctx.db, doc.id) : 1;
  if (kind !== 'pdf') await deletePages(ctx.db, doc.id);

  // Events arrive faster than the database writes them: chain the writes and wait for them at the end.
  let writes: Promise<void> = Promise.resolve();
  let pending: ExtractedPage[] = [];
  let total = 0;
  const enqueueWrite = (fn: () => Promise<void>) => {
    writes = writes.then(fn);
    writes.catch(() => undefined);
  };
  const flush = () => {
    const batch = pending;
    pending = [];
    if (batch.length) enqueueWrite(() => upsertPages(ctx.db, doc.id, batch));
  };
  // A long PDF takes turns: once its slice is used up and another student's job waits, the worker ends its
  // turn after the page in progress, the pages are saved and the job goes to the back of the queue; the next
  // turn resumes at the first missing page, on the same warm worker.
  const slice = new AbortController();
  const sliceEnds = Date.now() + ctx.config.limits.documentSliceMs;
  let nextCheck = sliceEnds;
  const maybeYield = () => {
    if (kind !== 'pdf' || slice.signal.aborted || Date.now() < nextCheck) return;
    nextCheck = Date.now() + 1000;
    enqueueWrite(async () => {
      if (await job.othersWaiting()) slice.abort();
    });
  };
  const onEvent = (e: WorkerEvent) => {
    if (e.type === 'total') total = e.pages;
    else if (e.type === 'ocr') {
      flush();
      enqueueWrite(async () => {
        await repo.markProcessing(ctx.db, doc.id, { status: 'ocr', progressPage: e.page, progressPages: e.pages });
        announce(ctx, doc);
      });
    } else if (e.type === 'page') {
      pending.push(e.page);
      // OCR pages are slow and precious: store each at once, so a crash loses at most the page in progress.
      if (e.page.method === 'ocr' || pending.length >= 25) flush();
      maybeYield();
    }
  };

  let result: ExtractResult | null;
  try {
    result = await extractLane.run<ExtractResult | null>(
      {
        op: 'extract',
        kind,
        ...source,
        startPage,
        maxPages: ctx.config.limits.documentMaxPages,
        maxPixels: ctx.config.limits.imageMaxPixels,
      },
      { onEvent, signal: job.signal, softStop: slice.signal, transfer: 'bytes' in source ? [source.bytes] : [] },
    );
  } catch (err) {
    flush();
    await writes;
    if (err instanceof ExtractionError) throw new DocumentFailure(err.kind, err.message);
    throw err;
  }
  flush();
  await writes;
  if (result?.nextPage) {
    ctx.log.info({ documentId: doc.id, nextPage: result.nextPage }, 'document yields');
    return YIELD;
  }

  const pages = await listPages(ctx.db, doc.id);
  const text = pages
    .map((p) => p.text)
    .join('\n\n')
    .trim();
  const ocrUsed = pages.some((p) => p.method === 'ocr');
  if (!text && (kind === 'pdf' || kind === 'image')) {
    throw new DocumentFailure('ocr_failed', MSG.courses.ocrFailed);
  }
  if (!text) {
    await repo.completeDocument(ctx.db, doc.id, {
      text: '',
      summary: null,
      keyTerms: [],
      summaryEngine: null,
      ocrUsed,
    });
    announce(ctx, doc);
    return;
  }
  await repo.markProcessing(ctx.db, doc.id, { status: 'summarising', progressPage: null, progressPages: null });
  announce(ctx, doc);
  const summary = await ai.summarise(doc.name, pages.map(toPageText), job.signal);
  await repo.completeDocument(ctx.db, doc.id, {
    text,
    summary: summary.summary || null,
    keyTerms: summary.keyTerms,
    summaryEngine: summary.summary ? summary.engine : null,
    ocrUsed,
  });
  ctx.log.info({ documentId: doc.id, pages: total || pages.length, ocrUsed }, 'document processed');
  announce(ctx, doc);
}

/** The processing job: fetch bytes, extract page by page (resumable), summarise, store once. */
export function processJob(deps: Deps): JobDefinition<ProcessPayload> {
  return {
    kind: PROCESS_JOB,
    maxAttempts: 3,
    handler: (payload, job) => process(deps, payload, job),
    async onFailed(payload, err) {
      const kind: DocumentErrorKind = err instanceof DocumentFailure ? err.kind : 'error';
      const message =
        err instanceof DocumentFailure
          ? kind === 'unreadable'
            ? MSG.courses.summaryFailed(err.message)
            : err.message
          : err instanceof ContentNotSaved
            ? MSG.courses.updateFailed
            : MSG.courses.processingError;
      await repo.updateDocument(deps.ctx.db, payload.documentId, {
        status: 'failed',
        progressPage: null,
        progressPages: null,
        errorKind: kind,
        errorMessage: message,
      });
      const doc = await repo.findDocument(deps.ctx.db, payload.documentId);
      if (doc) announce(deps.ctx, doc);
    },
  };
}
