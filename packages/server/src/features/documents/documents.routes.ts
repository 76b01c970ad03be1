import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import { signedIn } from '../../platform/session.ts';
import { processingRoutes } from './processing.routes.ts';
import type { ProcessingService } from './processing.service.ts';
import { questionsRoutes } from './questions.routes.ts';
import type { QuestionsService } from './questions.service.ts';
import { uploadRoutes } from './upload.routes.ts';
import type { UploadService } from './upload.service.ts';

export interface DocumentsServices {
  upload: UploadService;
  processing: ProcessingService;
  questions: QuestionsService;
}

/**
 * Requirements §7 calls 3–7 and the documents of a course, for the signed-in student's own data only: every route
 * of the set answers 401 before anything else, and each picks one of the named rate limits.
 */
export function documentsRoutes(services: DocumentsServices, rateLimits: boolean) {
  const limits = {
    /** Files in: uploads and Canvas files. */
    files: perMinute(rateLimits, 60),
    /** A document's summary (the stored one, or made once). */
    summaries: perMinute(rateLimits, 60),
    /** Text work a student waits for on the NLP lane: summaries of text sent, questions. */
    textWork: perMinute(rateLimits, 30),
  };
  return async (app: FastifyInstance) => {
    app.addHook('preValidation', signedIn);
    if (!app.hasRequestDecorator('isMultipart')) await app.register(fastifyMultipart);
    await app.register(uploadRoutes(services.upload, limits));
    await app.register(processingRoutes(services.processing));
    await app.register(questionsRoutes(services.questions, limits));
  };
}
