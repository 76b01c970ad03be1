import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  askDocumentInputSchema,
  documentSearchQuerySchema,
  summarizeDocumentInputSchema,
  summarizeTextInputSchema,
} from '@studybuddy/shared/documents-api';
import {
  askDocumentResponseSchema,
  documentDetailSchema,
  documentPagesSchema,
  documentSearchResponseSchema,
  summaryFailedSchema,
  summaryPendingSchema,
  summaryResponseSchema,
} from '@studybuddy/shared/documents-responses';
import { errorResponses } from '../../platform/openapi.ts';
import type { RouteRateLimit } from '../../platform/rate-limit-presets.ts';
import { requireUser } from '../../platform/session.ts';
import type { QuestionsService } from './questions.service.ts';
import { courseParams, idParams, tags } from './route-schemas.ts';

/** Questions: a document's detail and pages, the course search, §7 calls 4, 5 and 7. */
export function questionsRoutes(
  questions: QuestionsService,
  limits: { summaries: RouteRateLimit; textWork: RouteRateLimit },
) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();

    /** Beyond the spec: search across the text of a course's documents. */
    app.get(
      '/api/courses/:courseId/search',
      {
        schema: {
          summary: "Searches the text of a course's documents",
          tags,
          params: courseParams,
          querystring: documentSearchQuerySchema,
          response: { 200: documentSearchResponseSchema, ...errorResponses },
        },
      },
      async (request) => questions.search(requireUser(request).id, request.params.courseId, request.query.q),
    );

    app.get(
      '/api/documents/:id',
      {
        schema: {
          summary: 'One document with its summary, key terms and questions',
          tags,
          params: idParams,
          response: { 200: documentDetailSchema, ...errorResponses },
        },
      },
      async (request) => questions.detail(requireUser(request).id, request.params.id),
    );

    app.get(
      '/api/documents/:id/pages',
      {
        schema: {
          summary: "The document's text, page by page (slides, sheets or sections)",
          tags,
          params: idParams,
          response: { 200: documentPagesSchema, ...errorResponses },
        },
      },
      async (request) => ({ pages: await questions.pages(requireUser(request).id, request.params.id) }),
    );

    // §7 call 4
    app.post(
      '/api/summarize-text',
      {
        config: limits.textWork,
        schema: {
          summary: '§7 call 4: summarises a text',
          tags,
          body: summarizeTextInputSchema,
          response: { 200: summaryResponseSchema, ...errorResponses },
        },
      },
      async (request) => questions.summarizeText(request.body),
    );

    // §7 call 5: the stored summary, or 202 while the document is processed; failures carry the flags.
    app.post(
      '/api/summarize-document',
      {
        config: limits.summaries,
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
        const { status, body } = await questions.summarizeDocument(requireUser(request).id, request.body);
        return reply.status(status).send(body);
      },
    );

    // §7 call 7
    app.post(
      '/api/ask-document',
      {
        config: limits.textWork,
        schema: {
          summary: '§7 call 7: answers a question about a document, with citations',
          tags,
          body: askDocumentInputSchema,
          response: { 200: askDocumentResponseSchema, ...errorResponses },
        },
      },
      async (request) => questions.ask(requireUser(request).id, request.body),
    );
  };
}
