import { z } from 'zod';
import { QUESTION_MAX_CHARS, SUMMARIZE_TEXT_MAX_CHARS, type DocumentType } from './documents.ts';
import { MSG } from './messages.ts';

/** Contracts of the course-documents API (spec §7 calls 3–7 and the document list). */

export const DOCUMENT_STATUSES = [
  'not_processed',
  'queued',
  'extracting',
  'ocr',
  'summarising',
  'done',
  'failed',
] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const PROCESSING_STATUSES: readonly DocumentStatus[] = ['queued', 'extracting', 'ocr', 'summarising'];

export type DocumentSource = 'canvas' | 'local';
export type SummaryEngine = 'offline' | 'llm';
/** How a stretch of text is located: pages of PDFs and images, slides, sheets, or sections of plain text. */
export type TextUnit = 'page' | 'slide' | 'sheet' | 'section';
export type DocumentErrorKind = 'ocr_failed' | 'access_denied' | 'unreadable' | 'error';

export interface DocumentErrorDto {
  kind: DocumentErrorKind;
  message: string;
  /** Guidance steps for OCR failures and denied access. */
  steps: string[];
}

export interface CourseDocumentDto {
  id: string;
  courseId: string;
  name: string;
  type: DocumentType;
  source: DocumentSource;
  size: number;
  createdAt: string;
  /** Download address (our server for uploads, Canvas for LMS files). */
  url: string;
  moduleName: string | null;
  status: DocumentStatus;
  /** OCR progress while status is 'ocr'. */
  progress: { page: number; pages: number } | null;
  processed: boolean;
  error: DocumentErrorDto | null;
}

export interface CitationDto {
  unit: TextUnit;
  /** 1-based page, slide, sheet or section number. */
  page: number;
  /** 'page 3', 'slide 2', 'sheet Grades', 'section 1'. */
  label: string;
  /** The quoted passage. */
  passage: string;
  /** Character offsets of the passage in that page's text. */
  start: number;
  end: number;
}

export interface DocumentQuestionDto {
  id: string;
  question: string;
  answer: string;
  citations: CitationDto[];
  found: boolean;
  createdAt: string;
}

export interface DocumentDetailDto extends CourseDocumentDto {
  summary: string | null;
  keyTerms: string[];
  summaryEngine: SummaryEngine | null;
  ocrUsed: boolean;
  hasText: boolean;
  questions: DocumentQuestionDto[];
}

export interface DocumentPageDto {
  page: number;
  unit: TextUnit;
  label: string;
  text: string;
}

export interface CanvasListingStatus {
  connected: boolean;
  /** Why Canvas files are missing: the §8 texts (a 403 gives both parts). */
  error: { kind: 'forbidden' | 'unreachable' | 'failed'; messages: string[] } | null;
}

export interface CourseDocumentsResponse {
  documents: CourseDocumentDto[];
  canvas: CanvasListingStatus;
}

export interface DocumentSearchHit {
  documentId: string;
  name: string;
  citation: CitationDto;
}

export interface UploadDocumentResponse {
  filename: string;
  text: string;
  fileType: DocumentType;
  ocr: boolean;
  document: CourseDocumentDto;
}

export interface SummaryResponse {
  summary: string;
  key_terms: string[];
  engine: SummaryEngine;
}

export interface AskDocumentResponse {
  answer: string;
  citations: CitationDto[];
  found: boolean;
  engine: SummaryEngine;
  question: DocumentQuestionDto | null;
}

/** An LMS file as shown (spec §3 and §7 call 3). */
export interface CanvasFileDto {
  id: string;
  display_name: string;
  filename: string;
  name: string;
  type: DocumentType;
  size: number;
  url: string;
  content: string | null;
  created_at: string | null;
  createdAt: string | null;
  source: 'canvas';
  courseId: string;
  module_name: string | null;
  moduleName: string | null;
  documentId: string;
}

const optionalText = (max = 2000) => z.string().trim().max(max).optional();
const idLike = z.union([z.string(), z.number()]).transform((v) => String(v).trim());

export const courseIdSchema = z
  .string({ error: MSG.courses.courseRequired })
  .trim()
  .min(1, MSG.courses.courseRequired)
  .max(200, MSG.courses.courseRequired);

export const documentIdSchema = z.uuid(MSG.api.notFound);

/** Identifies one of the caller's documents: by id, or by the url the list gave out. */
const documentRef = {
  document_id: z.string().trim().max(200).optional(),
  document_url: z.string().trim().max(4000).optional(),
  document_name: optionalText(500),
  document_type: optionalText(50),
  source: optionalText(50),
  canvas_url: optionalText(500),
  access_token: optionalText(500),
};

export const summarizeTextInputSchema = z.object({
  text: z
    .string({ error: MSG.courses.noTextFound })
    .trim()
    .min(1, MSG.courses.noTextFound)
    .max(SUMMARIZE_TEXT_MAX_CHARS, MSG.courses.textTooLong('text', SUMMARIZE_TEXT_MAX_CHARS)),
  document_name: optionalText(500),
  document_type: optionalText(50),
});
export type SummarizeTextInput = z.infer<typeof summarizeTextInputSchema>;

export const summarizeDocumentInputSchema = z
  .object(documentRef)
  .refine((v) => !!(v.document_id || v.document_url), { message: MSG.api.notFound, path: ['document_id'] });
export type SummarizeDocumentInput = z.infer<typeof summarizeDocumentInputSchema>;

export const askDocumentInputSchema = z
  .object({
    ...documentRef,
    question: z
      .string({ error: MSG.courses.questionRequired })
      .trim()
      .min(1, MSG.courses.questionRequired)
      .max(QUESTION_MAX_CHARS, MSG.courses.questionTooLong(QUESTION_MAX_CHARS)),
    /** Page or assignment HTML sent by the client (LMS sources without a file). */
    document_content: z
      .string()
      .max(SUMMARIZE_TEXT_MAX_CHARS, MSG.courses.textTooLong('document content', SUMMARIZE_TEXT_MAX_CHARS))
      .optional(),
    summary: z.string().max(20_000).optional(),
  })
  .refine((v) => !!(v.document_id || v.document_url || v.document_content?.trim()), {
    message: MSG.api.notFound,
    path: ['document_id'],
  });
export type AskDocumentInput = z.infer<typeof askDocumentInputSchema>;

export const fetchCourseFilesInputSchema = z.object({
  canvas_url: optionalText(500),
  access_token: optionalText(500),
  course_id: idLike.pipe(courseIdSchema),
  file_id: idLike.pipe(z.string().min(1).max(100)).optional(),
});
export type FetchCourseFilesInput = z.infer<typeof fetchCourseFilesInputSchema>;

export const documentSearchQuerySchema = z.object({
  q: z.string().trim().min(2).max(200),
});

/** The upload target (files platform: multipart up to 262144 bytes, tus above) for course documents. */
export const COURSE_DOCUMENT_UPLOAD_TARGET = 'course-document';

/** Turns a finished upload to that target into a course document. */
export const createDocumentInputSchema = z.object({
  courseId: courseIdSchema,
  path: z.string().trim().min(1).max(1000),
  name: z.string({ error: MSG.courses.fileRequired }).trim().min(1, MSG.courses.fileRequired).max(255),
});
export type CreateDocumentInput = z.infer<typeof createDocumentInputSchema>;
