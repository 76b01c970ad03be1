import { fileExtension } from '@studybuddy/shared/documents';
import type { CitationDto, DocumentErrorKind, ShortAnswerDto, TextUnit } from '@studybuddy/shared/documents-api';
import type { PageText } from '../text-types.ts';

/** Which reader handles a file. 'none' has no text we can read (video, audio, legacy binary Office files). */
export type ExtractKind = 'pdf' | 'image' | 'docx' | 'pptx' | 'xlsx' | 'rtf' | 'text' | 'none';

const BY_EXTENSION: Record<string, ExtractKind> = {
  pdf: 'pdf',
  jpg: 'image',
  jpeg: 'image',
  png: 'image',
  gif: 'image',
  bmp: 'image',
  webp: 'image',
  tif: 'image',
  tiff: 'image',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
  rtf: 'rtf',
  txt: 'text',
  csv: 'text',
  md: 'text',
  tsv: 'text',
};

export function extractKindFor(name: string, contentType = ''): ExtractKind {
  const byName = BY_EXTENSION[fileExtension(name)];
  if (byName) return byName;
  if (contentType.startsWith('text/')) return 'text';
  return 'none';
}

export interface ExtractedPage extends PageText {
  method: 'text' | 'ocr';
}

/** A file we cannot read; retrying will not help. */
export class ExtractionError extends Error {
  constructor(
    readonly kind: Exclude<DocumentErrorKind, 'access_denied'>,
    message: string,
  ) {
    super(message);
  }
}

/** A pixel count in megapixels, as the refusal texts name it (40_000_000 → 40). */
export const megapixels = (pixels: number) => Math.round(pixels / 100_000) / 10;

export interface ExtractOptions {
  /** Pages before this one are already stored (a resumed job). */
  startPage: number;
  /** More pages than this and the document is refused (config.limits.documentMaxPages). */
  maxPages: number;
  /** Largest image decoded and largest page rendered for OCR, in pixels (config.limits.imageMaxPixels). */
  maxPixels: number;
  onTotal(pages: number): void;
  onOcrStart(page: number, pages: number): void;
  onPage(page: ExtractedPage): void;
  /** Asked between pages: true ends the run early (its turn is over); the result then names the next page. */
  shouldStop?(): boolean;
}

/** What an extraction answers: `nextPage` when it stopped early at a page boundary. */
export interface ExtractResult {
  nextPage?: number;
}

export interface SummaryResult {
  summary: string;
  keyTerms: string[];
  /** The pages read, when asked for with `keepPages`. */
  pages?: PageText[];
}

export interface AnswerResult {
  found: boolean;
  /** The words that answer, in their sentence (the first citation's page). */
  short: ShortAnswerDto | null;
  sentences: string[];
  citations: CitationDto[];
  context: { page: number; unit: TextUnit; label: string; text: string; start: number; end: number }[];
}

export type WorkerRequest =
  | {
      id: number;
      op: 'extract';
      kind: ExtractKind;
      /** The file: its bytes (transferred), or its path on this machine, read by the worker itself. */
      bytes?: ArrayBuffer;
      file?: string;
      startPage: number;
      maxPages: number;
      maxPixels: number;
    }
  | ({ id: number } & NlpRequest)
  /** Asks the running extraction `id` to stop at the next page boundary (no answer of its own). */
  | { id: number; op: 'stop' };

/**
 * The text an NLP request reads: a document's stored pages, plain text (cut into sections in the worker), or
 * what a client sent, plain or HTML (`content`). `keepPages` sends the pages read back (for a language model).
 */
export interface NlpSource {
  pages?: PageText[];
  text?: string;
  content?: string;
  keepPages?: boolean;
}

export type NlpRequest =
  | ({ op: 'summarise' } & NlpSource)
  | ({ op: 'answer'; key: string; question: string } & NlpSource);

export type WorkerEvent =
  | { id: number; type: 'total'; pages: number }
  | { id: number; type: 'ocr'; page: number; pages: number }
  | { id: number; type: 'page'; page: ExtractedPage }
  | { id: number; type: 'result'; value: unknown }
  | { id: number; type: 'error'; error: { kind?: ExtractionError['kind']; message: string } };
