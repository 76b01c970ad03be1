import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { processDocumentResponseSchema } from '@studybuddy/shared/documents-responses';
import { errorResponses } from '../../platform/openapi.ts';
import { requireUser } from '../../platform/session.ts';
import type { ProcessingService } from './processing.service.ts';
import { idParams, tags } from './route-schemas.ts';

/** Processing: a document queued again (after a failure) or for the first time (a Canvas file). */
export function processingRoutes(processing: ProcessingService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();

    app.post(
      '/api/documents/:id/process',
      {
        schema: {
          summary: 'Queues the document for text extraction and summary (again after a failure)',
          tags,
          params: idParams,
          response: { 200: processDocumentResponseSchema, ...errorResponses },
        },
      },
      async (request) => ({ document: await processing.process(requireUser(request).id, request.params.id) }),
    );
  };
}
