import type { FastifyInstance } from 'fastify';
import { DOCUMENT_MAX_UPLOAD_BYTES } from '@studybuddy/shared/documents';
import { COURSE_DOCUMENT_UPLOAD_TARGET } from '@studybuddy/shared/documents-api';
import type { AppContext } from '../../platform/context.ts';
import { createJobQueue, type JobQueueOptions } from '../../platform/jobs/job-queue.ts';
import { registerAccessRule } from '../../platform/storage/access.ts';
import { registerUploadTarget } from '../../platform/storage/upload-targets.ts';
import type { CanvasFilesSource } from './canvas-files.ts';
import { createCanvasSync } from './canvas-sync.ts';
import { createDocumentAi } from './document-ai.ts';
import { assertOwnCourse } from './document-access.ts';
import { createDocumentQuota } from './document-quota.ts';
import { documentsRoutes } from './documents.routes.ts';
import { WorkerLane, type LaneOptions } from './extraction/worker-lane.ts';
import { lmsCanvasFiles } from './lms-canvas-files.ts';
import { NlpLane } from './nlp-lane.ts';
import { createProcessingService } from './processing.service.ts';
import { createQuestionsService } from './questions.service.ts';
import { documentsFolder, uploadsFolder } from './storage-paths.ts';
import { createUploadService } from './upload.service.ts';

export interface DocumentsOptions {
  /** Where Canvas files come from (default: the LMS feature, with the student's stored token). */
  canvas?: CanvasFilesSource;
  queue?: JobQueueOptions;
  lanes?: LaneOptions;
}

/** A processing job's summary of a whole document (up to the page cap) may take a while; it is not waited on. */
const BACKGROUND_SUMMARY_BUDGET_MS = 5 * 60_000;

/**
 * Course documents in three rooms, built here: upload (files and Canvas files becoming documents), processing
 * (the job queue, the worker lanes: extraction and OCR, text work) and questions (pages, search, summaries,
 * answers). Their files are readable by their owner only and go with the account; large files come through the
 * resumable upload target and then become documents (POST /api/documents).
 */
export function documentsFeature(ctx: AppContext, options: DocumentsOptions = {}) {
  ctx.registry.accountCleanups.push((userId) => ctx.storage.deletePrefix(documentsFolder(userId)));
  registerUploadTarget(ctx, COURSE_DOCUMENT_UPLOAD_TARGET, {
    kind: 'file',
    maxBytes: DOCUMENT_MAX_UPLOAD_BYTES,
    async folder(user, params) {
      await assertOwnCourse(ctx.db, user.id, params.courseId);
      return uploadsFolder(user.id);
    },
  });
  registerAccessRule(ctx, 'documents', (reader, fullPath) => fullPath.split('/')[1] === reader.id);

  return async (app: FastifyInstance) => {
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
    const queue = createJobQueue(ctx.database, ctx.log, options.queue);
    const canvas = options.canvas ?? lmsCanvasFiles(ctx);
    const quota = createDocumentQuota(ctx);

    const summaryAi = createDocumentAi(ctx.config.llm, summaryLane, ctx.log);
    const processing = createProcessingService({ ctx, queue, extractLane, ai: summaryAi, canvas, quota });
    const canvasSync = createCanvasSync({ ctx, canvas });
    const upload = createUploadService({ ctx, processing, canvas: canvasSync, quota });
    const ai = createDocumentAi(ctx.config.llm, nlpLane, ctx.log);
    const questions = createQuestionsService({ ctx, ai, processing });

    app.addHook('onReady', () => queue.start());
    app.addHook('preClose', async () => {
      await queue.stop();
      await Promise.all([extractLane.close(), nlpLane.close(), summaryLane.close()]);
    });
    await app.register(documentsRoutes({ upload, processing, questions }, ctx.config.rateLimits));
  };
}
