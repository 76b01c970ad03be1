import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CitationDto, ShortAnswerDto } from '@studybuddy/shared/documents-api';
import { at, cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Course documents of requirements §3 (courseDocuments and documents): files a user uploaded to a course and
 * Canvas files of that course, with the extracted text, the summary and the processing state.
 */
export const courseDocuments = pgTable(
  'course_documents',
  {
    id: text('id').primaryKey(),
    userId: cascadeRef('user_id', () => users.id),
    courseId: text('course_id').notNull(),
    name: text('name').notNull(),
    /** Requirements §5 type by extension: document, presentation, spreadsheet, video, audio, image, other. */
    type: text('type').notNull(),
    source: text('source', { enum: ['local', 'canvas'] }).notNull(),
    contentType: text('content_type').notNull().default('application/octet-stream'),
    size: bigint('size', { mode: 'number' }).notNull().default(0),
    /** Object path in storage once the bytes are ours (uploads at once, Canvas files when fetched). */
    storagePath: text('storage_path'),
    canvasFileId: text('canvas_file_id'),
    /** Canvas download address (a capability URL; only ever shown to its owner). */
    canvasUrl: text('canvas_url'),
    moduleName: text('module_name'),
    /** not_processed, queued, extracting, ocr, summarising, done, failed */
    status: text('status').notNull().default('queued'),
    progressPage: integer('progress_page'),
    progressPages: integer('progress_pages'),
    errorKind: text('error_kind'),
    errorMessage: text('error_message'),
    processed: boolean('processed').notNull().default(false),
    ocrUsed: boolean('ocr_used').notNull().default(false),
    text: text('text'),
    summary: text('summary'),
    keyTerms: jsonb('key_terms')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    summaryEngine: text('summary_engine'),
    createdAt: createdAt(),
    canvasCreatedAt: at('canvas_created_at'),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('course_documents_user_course_idx').on(t.userId, t.courseId),
    uniqueIndex('course_documents_canvas_file')
      .on(t.userId, t.courseId, t.canvasFileId)
      .where(sql`${t.canvasFileId} is not null`),
  ],
);

/**
 * Text of one page (slide, sheet, section) of a document; written page by page so a restarted job resumes.
 * The hand-written migration `*_search.sql` adds `search_vector` (a generated tsvector of the page's words) and its
 * GIN index document_pages_search_idx; left out here so that selects and inserts never carry it.
 */
export const documentPages = pgTable(
  'document_pages',
  {
    documentId: cascadeRef('document_id', () => courseDocuments.id),
    page: integer('page').notNull(),
    unit: text('unit').notNull(),
    label: text('label').notNull(),
    text: text('text').notNull(),
    method: text('method', { enum: ['text', 'ocr'] }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.documentId, t.page] })],
);

/** The questions subcollection of a course document (requirements §3): question, answer, timestamp, userId. */
export const documentQuestions = pgTable(
  'document_questions',
  {
    id: text('id').primaryKey(),
    documentId: cascadeRef('document_id', () => courseDocuments.id),
    userId: cascadeRef('user_id', () => users.id),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** The words that answer in their sentence (issue 28); null when none was found. */
    shortAnswer: jsonb('short_answer').$type<ShortAnswerDto>(),
    citations: jsonb('citations')
      .$type<CitationDto[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    found: boolean('found').notNull().default(true),
    engine: text('engine').notNull().default('offline'),
    createdAt: createdAt(),
  },
  (t) => [index('document_questions_document_idx').on(t.documentId, t.createdAt)],
);
