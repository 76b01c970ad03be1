import { z } from 'zod';
import type { CitationDto, CourseDocumentDto, DocumentErrorDto, SummaryResponse } from './documents-responses.ts';
import { QUESTION_MAX_CHARS, SUMMARIZE_TEXT_MAX_CHARS } from './documents.ts';
import { MSG } from './messages.ts';

/** Contracts of the course-documents API (requirements §7 calls 3–7 and the document list). */

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

export type DocumentSource = CourseDocumentDto['source'];
export type SummaryEngine = SummaryResponse['engine'];
/** How a stretch of text is located: pages of PDFs and images, slides, sheets, or sections of plain text. */
export type TextUnit = CitationDto['unit'];
export type DocumentErrorKind = DocumentErrorDto['kind'];

export type {
  AskDocumentResponse,
  CanvasFileDto,
  CanvasListingStatus,
  CitationDto,
  CourseDocumentDto,
  CourseDocumentsResponse,
  DocumentDetailDto,
  DocumentErrorDto,
  DocumentPageDto,
  DocumentQuestionDto,
  DocumentSearchHit,
  ShortAnswerDto,
  SummaryResponse,
  UploadDocumentResponse,
} from './documents-responses.ts';

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
