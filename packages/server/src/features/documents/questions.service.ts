import { createHash, randomUUID } from 'node:crypto';
import type {
  AskDocumentInput,
  AskDocumentResponse,
  DocumentDetailDto,
  DocumentPageDto,
  DocumentSearchHit,
  SummarizeDocumentInput,
  SummarizeTextInput,
  SummaryResponse,
} from '@studybuddy/shared/documents-api';
import type {
  summaryFailedSchema,
  summaryPendingSchema,
  summaryResponseSchema,
} from '@studybuddy/shared/documents-responses';
import { MSG } from '@studybuddy/shared/messages';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import type { DocumentAi } from './document-ai.ts';
import { ownDocument, resolveDocument } from './document-access.ts';
import { listPages, searchCourse } from './document-pages.repository.ts';
import { insertQuestion, listQuestions } from './document-questions.repository.ts';
import { findDocument, saveSummary } from './documents.repository.ts';
import { toDetailDto, toDocumentDto, toPageText, toQuestionDto } from './documents.mapper.ts';
import type { ProcessingService } from './processing.service.ts';

export interface QuestionsDeps {
  ctx: AppContext;
  /** Summaries and answers a student waits for (on the NLP lane, within its time budget). */
  ai: DocumentAi;
  processing: ProcessingService;
}

export type QuestionsService = ReturnType<typeof createQuestionsService>;

/** §7 call 5 as the route sends it: the summary, 202 while the document is processed, or 422 with the flags. */
export type SummarizeDocumentAnswer =
  | { status: 200; body: z.infer<typeof summaryResponseSchema> }
  | { status: 202; body: z.infer<typeof summaryPendingSchema> }
  | { status: 422; body: z.infer<typeof summaryFailedSchema> };

const PROCESSING = new Set(['queued', 'extracting', 'ocr', 'summarising']);

/** §7 call 5's answer for a summary that cannot be made, with its flags. */
function summaryFailed(message: string, errorKind: string | null): SummarizeDocumentAnswer {
  return {
    status: 422,
    body: {
      error: { code: errorKind ?? 'summary_failed', message },
      ocr_failed: errorKind === 'ocr_failed',
      access_denied: errorKind === 'access_denied',
    },
  };
}

/**
 * What is in a student's documents: their text page by page, the search over it, summaries (of a document or of
 * text sent) and answers to questions, with the questions asked kept.
 */
export function createQuestionsService(deps: QuestionsDeps) {
  const { ctx, ai, processing } = deps;

  return {
    /** One document with its summary, key terms and questions. */
    async detail(userId: string, id: string): Promise<DocumentDetailDto> {
      const doc = await ownDocument(ctx.db, userId, id);
      return toDetailDto(doc, await listQuestions(ctx.db, doc.id));
    },

    /** The document's text, page by page (slides, sheets or sections). */
    async pages(userId: string, id: string): Promise<DocumentPageDto[]> {
      const doc = await ownDocument(ctx.db, userId, id);
      return (await listPages(ctx.db, doc.id)).map(toPageText);
    },

    /** Pages of the student's processed documents in a course that hold every word of `q`. */
    async search(userId: string, courseId: string, q: string): Promise<{ hits: DocumentSearchHit[] }> {
      return { hits: await searchCourse(ctx.db, userId, courseId, q) };
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

    /** The stored summary (202 while the document is processed; a document without one is processed first). */
    async summarizeDocument(userId: string, input: SummarizeDocumentInput): Promise<SummarizeDocumentAnswer> {
      const doc = await resolveDocument(ctx.db, userId, input);
      if (doc.summary) {
        const engine = (doc.summaryEngine ?? 'offline') as SummaryResponse['engine'];
        return { status: 200, body: { summary: doc.summary, key_terms: doc.keyTerms, engine } };
      }
      if (doc.status === 'failed') return summaryFailed(doc.errorMessage ?? MSG.courses.summaryError, doc.errorKind);
      if (doc.status !== 'done') {
        if (doc.status === 'not_processed') await processing.enqueue(doc);
        const document = toDocumentDto((await findDocument(ctx.db, doc.id))!);
        return { status: 202, body: { status: document.status, document } };
      }
      const pages = (await listPages(ctx.db, doc.id)).map(toPageText);
      if (!pages.length) return summaryFailed(MSG.courses.summaryFailed(MSG.courses.noTextType), null);
      const result = await ai.summarise(doc.name, pages);
      if (!result.summary) return summaryFailed(MSG.courses.summaryError, null);
      await saveSummary(ctx.db, doc.id, result);
      return { status: 200, body: { summary: result.summary, key_terms: result.keyTerms, engine: result.engine } };
    },

    /** An answer with citations (a failure of the answering itself is a 503 the student may retry). */
    async ask(userId: string, input: AskDocumentInput): Promise<AskDocumentResponse> {
      try {
        return await answer(userId, input);
      } catch (err) {
        if (err instanceof AppError) throw err;
        ctx.log.error({ err }, 'answering a question failed');
        throw new AppError(503, 'question_failed', MSG.courses.questionError);
      }
    },
  };

  async function answer(userId: string, input: AskDocumentInput): Promise<AskDocumentResponse> {
    if (!input.document_id && !input.document_url && input.document_content) {
      // Read (HTML or not), cut into sections and indexed on the NLP worker, within its time budget.
      const content = input.document_content;
      const key = `content:${createHash('sha256').update(content).digest('hex')}`;
      const out = await ai.answerContent(key, input.document_name ?? 'Document', content, input.question);
      return { ...out, question: null };
    }
    const doc = await resolveDocument(ctx.db, userId, input);
    if (PROCESSING.has(doc.status) || doc.status === 'not_processed') {
      throw new AppError(409, 'not_ready', MSG.courses.notReadyForQuestions);
    }
    const pages = (await listPages(ctx.db, doc.id)).map(toPageText);
    if (!pages.length) throw new AppError(422, 'no_text', MSG.courses.noTextForQuestions);
    const out = await ai.answer(`${doc.id}:${doc.updatedAt.getTime()}`, doc.name, pages, input.question);
    const stored = await insertQuestion(ctx.db, {
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
  }
}
