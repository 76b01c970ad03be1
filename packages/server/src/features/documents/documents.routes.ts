import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fastifyMultipart from '@fastify/multipart';
import type { RateLimitOptions } from '@fastify/rate-limit';
import { z } from 'zod';
import { DOCUMENT_MAX_UPLOAD_BYTES, formatFileSize } from '@studybuddy/shared/documents';
import {
  askDocumentInputSchema,
  courseIdSchema,
  createDocumentInputSchema,
  documentSearchQuerySchema,
  fetchCourseFilesInputSchema,
  summarizeDocumentInputSchema,
  summarizeTextInputSchema,
} from '@studybuddy/shared/documents-api';
import {
  askDocumentResponseSchema,
  courseDocumentsResponseSchema,
  documentDetailSchema,
  documentPagesSchema,
  documentSearchResponseSchema,
  fetchCourseFilePendingSchema,
  fetchCourseFilesResponseSchema,
  processDocumentResponseSchema,
  summaryFailedSchema,
  summaryPendingSchema,
  summaryResponseSchema,
  uploadDocumentResponseSchema,
} from '@studybuddy/shared/documents-responses';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, parse } from '../../platform/errors.ts';
import { errorResponses, fileResponse } from '../../platform/openapi.ts';
import { createJobQueue, type JobQueueOptions } from '../../platform/jobs/job-queue.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { canvasFilesFor, setCanvasFilesSource, type CanvasFilesSource } from './canvas-files.ts';
import { fetchCourseFiles } from './course-files.ts';
import { createDocumentAi } from './document-ai.ts';
import { processJob } from './document-processor.ts';
import { searchCourse } from './document-search.repository.ts';
import { createDocumentsService, SummaryFailure } from './documents.service.ts';
import { WorkerLane, type LaneOptions } from './extraction/worker-lane.ts';
import { NlpLane } from './nlp-lane.ts';
import { lmsCanvasFiles } from './lms-canvas-files.ts';

export interface DocumentsOptions {
  canvas?: CanvasFilesSource;
  queue?: JobQueueOptions;
  lanes?: LaneOptions;
}

/** A processing job's summary of a whole document (up to the page cap) may take a while; it is not waited on. */
const BACKGROUND_SUMMARY_BUDGET_MS = 5 * 60_000;

const idParams = z.object({ id: z.string().trim().min(1).max(100) });
const courseParams = z.object({ courseId: courseIdSchema });
const refreshQuery = z.object({ refresh: z.enum(['0', '1']).optional() });
const uploadQuery = z.object({
  courseId: z.string().optional().describe('The course (or send it as the multipart field `courseId`)'),
});

/**
 * Reads the multipart upload: the file (up to the limit), streamed to `tmpFile` so sixty 25 MB uploads at once
 * never sit in memory, and the course it belongs to. The caller removes `tmpFile`.
 */
async function readUpload(request: FastifyRequest, tmpFile: string) {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', MSG.api.unsupportedType);
  const query = request.query as Record<string, unknown>;
  let courseId = typeof query.courseId === 'string' ? query.courseId : undefined;
  let file: { filename: string; mimetype: string; file: string; size: number } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: DOCUMENT_MAX_UPLOAD_BYTES, files: 1, fields: 5 } })) {
      if (part.type === 'file') {
        let size = 0;
        part.file.on('data', (chunk: Buffer) => (size += chunk.length));
        // A 1 MB buffer lets the chunks that arrive while one write is under way go out together (writev).
        await pipeline(part.file, createWriteStream(tmpFile, { highWaterMark: 2 ** 20 }));
        if (part.file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
        file = { filename: part.filename, mimetype: part.mimetype, file: tmpFile, size };
      } else if (part.fieldname === 'courseId' && typeof part.value === 'string') {
        courseId = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        413,
        'file_too_large',
        MSG.courses.fileTooLarge(formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES)),
        'file',
      );
    }
    if (code?.startsWith('FST_')) throw badRequest(MSG.courses.uploadFailed, 'file');
    throw err;
  }
  if (!file?.filename) throw badRequest(MSG.courses.fileRequired, 'file');
  return { ...file, courseId: parse(courseIdSchema, courseId) };
}

/** Requirements §7 calls 3–7 and the documents of a course, for the signed-in user's own data only. */
export function documentsRoutes(ctx: AppContext, options: DocumentsOptions = {}) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['documents'];
    const preValidation = signedIn;
    const lanes = { maxOldGenerationSizeMb: ctx.config.limits.workerMemoryMb, ...options.lanes };
    // Extraction is background work on files of up to 25 MB: a small young generation keeps its peaks lower.
    const extractLane = new WorkerLane({ maxYoungGenerationSizeMb: 16, ...lanes });
    // Text work on lanes of its own: a student's request (summary of sent text, question) never waits behind
    // OCR or the summary of someone's long document, and ends within its time budget.
    const nlpLane = new NlpLane(ctx.config.limits.nlpBudgetMs, { ...lanes, nice: 5 });
    const summaryLane = new NlpLane(BACKGROUND_SUMMARY_BUDGET_MS, lanes);
    ctx.metrics.watchLane('extract', extractLane);
    ctx.metrics.watchLane('nlp', nlpLane);
    ctx.metrics.watchLane('summary', summaryLane);
    const ai = createDocumentAi(ctx.config.llm, nlpLane, ctx.log);
    setCanvasFilesSource(ctx, options.canvas ?? lmsCanvasFiles(ctx));
    const canvas = () => canvasFilesFor(ctx);
    const queue = createJobQueue(ctx.database, ctx.log, options.queue);
    queue.define(processJob({ ctx, extractLane, ai: createDocumentAi(ctx.config.llm, summaryLane, ctx.log), canvas }));
    const service = createDocumentsService({ ctx, queue, ai, canvas });

    app.addHook('onReady', () => queue.start());
    app.addHook('preClose', async () => {
      await queue.stop();
      await Promise.all([extractLane.close(), nlpLane.close(), summaryLane.close()]);
    });
    if (!app.hasRequestDecorator('isMultipart')) await app.register(fastifyMultipart);

    const limited = (max: number): { rateLimit?: RateLimitOptions } =>
      ctx.config.rateLimits
        ? { rateLimit: { max, timeWindow: '1 minute', keyGenerator: (r: FastifyRequest) => r.user?.id ?? r.ip } }
        : {};

    app.get(
      '/api/courses/:courseId/documents',
      {
        preValidation,
        schema: {
          summary: "The course's documents (uploads and Canvas files); refresh=1 asks Canvas again",
          tags,
          params: courseParams,
          querystring: refreshQuery,
          response: { 200: courseDocumentsResponseSchema, ...errorResponses },
        },
      },
      async (request) =>
        service.listCourse(requireUser(request).id, request.params.courseId, request.query.refresh === '1'),
    );

    /** Beyond the spec: search across the text of a course's documents. */
    app.get(
      '/api/courses/:courseId/search',
      {
        preValidation,
        schema: {
          summary: "Searches the text of a course's documents",
          tags,
          params: courseParams,
          querystring: documentSearchQuerySchema,
          response: { 200: documentSearchResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({
        hits: await searchCourse(ctx.db, requireUser(request).id, request.params.courseId, request.query.q),
      }),
    );

    app.get(
      '/api/documents/:id',
      {
        preValidation,
        schema: {
          summary: 'One document with its summary, key terms and questions',
          tags,
          params: idParams,
          response: { 200: documentDetailSchema, ...errorResponses },
        },
      },
      async (request) => service.detail(requireUser(request).id, request.params.id),
    );

    app.get(
      '/api/documents/:id/pages',
      {
        preValidation,
        schema: {
          summary: "The document's text, page by page (slides, sheets or sections)",
          tags,
          params: idParams,
          response: { 200: documentPagesSchema, ...errorResponses },
        },
      },
      async (request) => ({ pages: await service.pages(requireUser(request).id, request.params.id) }),
    );

    app.get(
      '/api/documents/:id/file',
      {
        preValidation,
        schema: {
          summary: 'Downloads the uploaded file',
          tags,
          params: idParams,
          response: { 200: fileResponse('The file, as an attachment'), ...errorResponses },
        },
      },
      async (request, reply) => {
        const file = await service.openFile(requireUser(request).id, request.params.id);
        return reply
          .header('Content-Type', file.contentType)
          .header('Content-Length', file.size)
          .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Cache-Control', 'private, no-cache')
          .send(file.body);
      },
    );

    app.post(
      '/api/documents/:id/process',
      {
        preValidation,
        schema: {
          summary: 'Queues the document for text extraction and summary (again after a failure)',
          tags,
          params: idParams,
          response: { 200: processDocumentResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({ document: await service.process(requireUser(request).id, request.params.id) }),
    );

    // §7 call 6: multipart with the file (and the course it belongs to).
    app.post(
      '/api/upload-document',
      {
        config: limited(60),
        preValidation,
        schema: {
          summary: '§7 call 6: uploads a document (multipart: `file` and `courseId`)',
          description: `multipart/form-data with the field \`file\` (at most ${formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES)}).`,
          tags,
          querystring: uploadQuery,
          response: { 201: uploadDocumentResponseSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await service.assertUploadRoom(user.id, Number(request.headers['content-length']) || 0);
        const tmpDir = path.join(ctx.config.dataDir, 'tmp');
        await mkdir(tmpDir, { recursive: true });
        const tmpFile = path.join(tmpDir, `upload-${randomUUID()}`);
        try {
          const upload = await readUpload(request, tmpFile);
          return reply.status(201).send(await service.upload(user.id, upload));
        } finally {
          await rm(tmpFile, { force: true });
        }
      },
    );

    app.post(
      '/api/documents',
      {
        preValidation,
        schema: {
          summary: 'Turns a finished upload (files platform) into a course document',
          tags,
          body: createDocumentInputSchema,
          response: { 201: uploadDocumentResponseSchema, ...errorResponses },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.createFromUpload(requireUser(request).id, request.body)),
    );

    // §7 call 4
    app.post(
      '/api/summarize-text',
      {
        config: limited(30),
        preValidation,
        schema: {
          summary: '§7 call 4: summarises a text',
          tags,
          body: summarizeTextInputSchema,
          response: { 200: summaryResponseSchema, ...errorResponses },
        },
      },
      async (request) => service.summarizeText(request.body),
    );

    // §7 call 5: the stored summary, or 202 while the document is processed; failures carry the flags.
    app.post(
      '/api/summarize-document',
      {
        config: limited(60),
        preValidation,
        schema: {
          summary: "§7 call 5: a document's summary (202 while it is processed)",
          tags,
          body: summarizeDocumentInputSchema,
          response: {
            200: summaryResponseSchema,
            202: summaryPendingSchema,
            422: summaryFailedSchema,
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        try {
          const { status, body } = await service.summarizeDocument(user.id, request.body);
          return reply.status(status).send(body);
        } catch (err) {
          if (!(err instanceof SummaryFailure)) throw err;
          return reply.status(422).send({
            error: { code: err.code, message: err.message },
            ocr_failed: err.errorKind === 'ocr_failed',
            access_denied: err.errorKind === 'access_denied',
          });
        }
      },
    );

    // §7 call 7
    app.post(
      '/api/ask-document',
      {
        config: limited(30),
        preValidation,
        schema: {
          summary: '§7 call 7: answers a question about a document, with citations',
          tags,
          body: askDocumentInputSchema,
          response: { 200: askDocumentResponseSchema, ...errorResponses },
        },
      },
      async (request) => {
        const user = requireUser(request);
        try {
          return await service.ask(user.id, request.body);
        } catch (err) {
          if (err instanceof AppError) throw err;
          ctx.log.error({ err }, 'answering a question failed');
          throw new AppError(503, 'question_failed', MSG.courses.questionError);
        }
      },
    );

    // §7 call 3: the course's Canvas files (with module names), or one file's content with file_id.
    app.post(
      '/api/fetch-course-files',
      {
        config: limited(60),
        preValidation,
        schema: {
          summary: "§7 call 3: the course's Canvas files, or one file's content (202 while it is processed)",
          tags,
          body: fetchCourseFilesInputSchema,
          response: { 200: fetchCourseFilesResponseSchema, 202: fetchCourseFilePendingSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { status, body } = await fetchCourseFiles(
          { ctx, service, canvas },
          requireUser(request).id,
          request.body,
        );
        return reply.status(status).send(body);
      },
    );
  };
}
