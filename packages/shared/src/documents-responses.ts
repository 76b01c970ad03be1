import { z } from 'zod';
import { DOCUMENT_STATUSES } from './documents-api.ts';
import { DOCUMENT_TYPES } from './documents.ts';

/** What the course-documents API answers (response schemas; the web's types are inferred from them). */

const documentSource = z.enum(['canvas', 'local']);
const summaryEngine = z.enum(['offline', 'llm']);
/** How a stretch of text is located: pages of PDFs and images, slides, sheets, or sections of plain text. */
const textUnit = z.enum(['page', 'slide', 'sheet', 'section']);

export const documentErrorSchema = z.object({
  kind: z.enum(['ocr_failed', 'access_denied', 'unreadable', 'error']),
  message: z.string(),
  /** Guidance steps for OCR failures and denied access. */
  steps: z.array(z.string()),
});
export type DocumentErrorDto = z.infer<typeof documentErrorSchema>;

export const courseDocumentSchema = z.object({
  id: z.string(),
  courseId: z.string(),
  name: z.string(),
  type: z.enum(DOCUMENT_TYPES),
  source: documentSource,
  size: z.number(),
  createdAt: z.string(),
  /** Download address (our server for uploads, Canvas for LMS files). */
  url: z.string(),
  moduleName: z.string().nullable(),
  status: z.enum(DOCUMENT_STATUSES),
  /** OCR progress while status is 'ocr'. */
  progress: z.object({ page: z.number(), pages: z.number() }).nullable(),
  processed: z.boolean(),
  error: documentErrorSchema.nullable(),
});
export type CourseDocumentDto = z.infer<typeof courseDocumentSchema>;

export const citationSchema = z.object({
  unit: textUnit,
  /** 1-based page, slide, sheet or section number. */
  page: z.number(),
  /** 'page 3', 'slide 2', 'sheet Grades', 'section 1'. */
  label: z.string(),
  /** The quoted passage. */
  passage: z.string(),
  /** Character offsets of the passage in that page's text. */
  start: z.number(),
  end: z.number(),
});
export type CitationDto = z.infer<typeof citationSchema>;

/** The words that answer (a date, a name, a number, a phrase) in the sentence they come from; the sentence's
 * page is the answer's first citation. */
export const shortAnswerSchema = z.object({
  text: z.string(),
  sentence: z.string(),
  /** Offsets of `text` in `sentence`. */
  start: z.number(),
  end: z.number(),
});
export type ShortAnswerDto = z.infer<typeof shortAnswerSchema>;

/** An answer to a question about a document, as asked (§7 call 7) and as stored with the question. */
const answerSchema = z.object({
  answer: z.string(),
  /** Null when no short answer was found (or for answers stored before short answers existed). */
  shortAnswer: shortAnswerSchema.nullable(),
  /** The sentence's passage first, then further passages. */
  citations: z.array(citationSchema),
  found: z.boolean(),
});

export const documentQuestionSchema = z.object({
  id: z.string(),
  question: z.string(),
  ...answerSchema.shape,
  createdAt: z.string(),
});
export type DocumentQuestionDto = z.infer<typeof documentQuestionSchema>;

export const documentDetailSchema = courseDocumentSchema.extend({
  summary: z.string().nullable(),
  keyTerms: z.array(z.string()),
  summaryEngine: summaryEngine.nullable(),
  ocrUsed: z.boolean(),
  hasText: z.boolean(),
  questions: z.array(documentQuestionSchema),
});
export type DocumentDetailDto = z.infer<typeof documentDetailSchema>;

export const documentPageSchema = z.object({ page: z.number(), unit: textUnit, label: z.string(), text: z.string() });
export type DocumentPageDto = z.infer<typeof documentPageSchema>;

export const documentPagesSchema = z.object({ pages: z.array(documentPageSchema) });

export const canvasListingStatusSchema = z.object({
  connected: z.boolean(),
  /** Why Canvas files are missing: the §8 texts (a 403 gives both parts). */
  error: z.object({ kind: z.enum(['forbidden', 'unreachable', 'failed']), messages: z.array(z.string()) }).nullable(),
});
export type CanvasListingStatus = z.infer<typeof canvasListingStatusSchema>;

export const courseDocumentsResponseSchema = z.object({
  documents: z.array(courseDocumentSchema),
  canvas: canvasListingStatusSchema,
});
export type CourseDocumentsResponse = z.infer<typeof courseDocumentsResponseSchema>;

export const documentSearchHitSchema = z.object({ documentId: z.string(), name: z.string(), citation: citationSchema });
export type DocumentSearchHit = z.infer<typeof documentSearchHitSchema>;

export const documentSearchResponseSchema = z.object({ hits: z.array(documentSearchHitSchema) });

export const processDocumentResponseSchema = z.object({ document: courseDocumentSchema });

export const uploadDocumentResponseSchema = z.object({
  filename: z.string(),
  text: z.string(),
  fileType: z.enum(DOCUMENT_TYPES),
  ocr: z.boolean(),
  document: courseDocumentSchema,
});
export type UploadDocumentResponse = z.infer<typeof uploadDocumentResponseSchema>;

export const summaryResponseSchema = z.object({
  summary: z.string(),
  key_terms: z.array(z.string()),
  engine: summaryEngine,
});
export type SummaryResponse = z.infer<typeof summaryResponseSchema>;

/** 202 of §7 call 5: the document is being processed; ask again later. */
export const summaryPendingSchema = z.object({ status: z.enum(DOCUMENT_STATUSES), document: courseDocumentSchema });

/** 422 of §7 call 5: the summary failed; the flags say why. */
export const summaryFailedSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
  ocr_failed: z.boolean().optional(),
  access_denied: z.boolean().optional(),
});

export const askDocumentResponseSchema = z.object({
  ...answerSchema.shape,
  engine: summaryEngine,
  question: documentQuestionSchema.nullable(),
});
export type AskDocumentResponse = z.infer<typeof askDocumentResponseSchema>;

/** An LMS file as shown (requirements §3 and §7 call 3). */
export const canvasFileSchema = z.object({
  id: z.string(),
  display_name: z.string(),
  filename: z.string(),
  name: z.string(),
  type: z.enum(DOCUMENT_TYPES),
  size: z.number(),
  url: z.string(),
  content: z.string().nullable(),
  created_at: z.string().nullable(),
  createdAt: z.string().nullable(),
  source: z.literal('canvas'),
  courseId: z.string(),
  module_name: z.string().nullable(),
  moduleName: z.string().nullable(),
  documentId: z.string(),
});
export type CanvasFileDto = z.infer<typeof canvasFileSchema>;

/** §7 call 3: the course's files, one file's content, or (202) that file while it is being processed. */
export const fetchCourseFilesResponseSchema = z.union([
  z.object({ files: z.array(canvasFileSchema) }),
  z.object({ content: z.string(), file: canvasFileSchema }),
]);
export const fetchCourseFilePendingSchema = z.object({
  content: z.null(),
  status: z.enum(DOCUMENT_STATUSES),
  document: courseDocumentSchema,
});
export type FetchCourseFilesAnswer =
  | { status: 200; body: z.infer<typeof fetchCourseFilesResponseSchema> }
  | { status: 202; body: z.infer<typeof fetchCourseFilePendingSchema> };
