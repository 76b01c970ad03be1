// Worker thread: every CPU-heavy step of document processing (PDF parsing, page rendering, OCR, office
// formats, sentence analysis, summaries, retrieval), so the API's event loop never waits on them.
import { open, readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { runNlp } from './nlp-tasks.ts';
import {
  ExtractionError,
  type ExtractedPage,
  type ExtractResult,
  type WorkerEvent,
  type WorkerRequest,
} from './extraction/extract-types.ts';
import { MSG } from '@studybuddy/shared/messages';
import { hasPdfHeader, PDF_HEADER_WINDOW } from './extraction/pdf-limits.ts';
import { sections } from './extraction/sections.ts';
import { decodeText } from './extraction/plain-text.ts';

// Readers load on first use: a thread that only summarises never pays for pdf.js, OCR or Office parsers.
const office = () => import('./extraction/office-extract.ts');
const ocr = () => import('./extraction/ocr.ts');

// Background work yields the CPU to the API: on Linux a thread's nice value is its own (pid 0 = this
// thread) and the OCR engine's thread, started from here, inherits it.
try {
  setPriority(0, (workerData as { nice?: number } | null)?.nice ?? 10);
} catch {
  // not permitted here: run at normal priority
}

const port = parentPort!;
const send = (event: WorkerEvent) => port.postMessage(event);

/** Extractions asked to end their turn at the next page boundary. */
const stopAsked = new Set<number>();

type ExtractRequest = Extract<WorkerRequest, { op: 'extract' }>;

/**
 * The file's bytes: sent, or read here from local storage. A file named .pdf without a PDF header is refused
 * after its first kilobyte, and a file no reader handles is not read at all.
 */
async function bytesOf(req: ExtractRequest): Promise<Uint8Array> {
  if (!req.file) return new Uint8Array(req.bytes ?? new ArrayBuffer(0));
  if (req.kind === 'none') return new Uint8Array(0);
  if (req.kind === 'pdf') {
    const handle = await open(req.file, 'r');
    try {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(PDF_HEADER_WINDOW) });
      if (!hasPdfHeader(buffer.subarray(0, bytesRead))) {
        throw new ExtractionError('unreadable', MSG.courses.unreadablePdf);
      }
    } finally {
      await handle.close();
    }
  }
  const read = await readFile(req.file);
  // A plain view: pdf.js refuses a Buffer.
  return new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
}

async function extract(req: ExtractRequest): Promise<ExtractResult | void> {
  const bytes = await bytesOf(req);
  const onPage = (page: ExtractedPage) => send({ id: req.id, type: 'page', page });
  const emitAll = (pages: ExtractedPage[]) => {
    send({ id: req.id, type: 'total', pages: pages.length });
    pages.forEach(onPage);
  };
  switch (req.kind) {
    case 'pdf': {
      const { extractPdf } = await import('./extraction/pdf-extract.ts');
      return extractPdf(bytes, {
        startPage: req.startPage,
        maxPages: req.maxPages,
        maxPixels: req.maxPixels,
        onTotal: (pages) => send({ id: req.id, type: 'total', pages }),
        onOcrStart: (page, pages) => send({ id: req.id, type: 'ocr', page, pages }),
        onPage,
        shouldStop: () => stopAsked.has(req.id),
      });
    }
    case 'image': {
      const { imageForOcr, ocrImage } = await ocr();
      send({ id: req.id, type: 'total', pages: 1 });
      send({ id: req.id, type: 'ocr', page: 1, pages: 1 });
      const { text } = await ocrImage(
        await imageForOcr(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), req.maxPixels),
      );
      return onPage({ page: 1, unit: 'page', label: 'page 1', text, method: 'ocr' });
    }
    case 'docx':
      return emitAll(await (await office()).extractDocx(bytes));
    case 'pptx':
      return emitAll(await (await office()).extractPptx(bytes));
    case 'xlsx':
      return emitAll(await (await office()).extractXlsx(bytes));
    case 'rtf':
      return emitAll(await (await office()).extractRtf(bytes));
    case 'text':
      return emitAll(sections(decodeText(bytes)));
    case 'none':
      return emitAll([]);
  }
}

port.on('message', (req: WorkerRequest) => {
  if (req.op === 'stop') {
    stopAsked.add(req.id);
    return;
  }
  const run = async (): Promise<unknown> => {
    switch (req.op) {
      case 'extract':
        return extract(req).finally(() => stopAsked.delete(req.id));
      case 'summarise':
      case 'answer':
        return runNlp(req);
    }
  };
  run().then(
    (value) => send({ id: req.id, type: 'result', value: value ?? null }),
    (err: unknown) => {
      const kind = err instanceof ExtractionError ? err.kind : undefined;
      const message = err instanceof Error ? err.message : String(err);
      send({ id: req.id, type: 'error', error: { kind, message } });
    },
  );
});
