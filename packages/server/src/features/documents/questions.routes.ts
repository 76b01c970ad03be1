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
import { routeOptions } from '../../platform/route-options.ts';
import { studentId } from '../../platform/signed-in.ts';
import type { RouteRateLimit } from '../../platform/rate-limit-presets.ts';
import type { QuestionsService } from './questions.service.ts';
import { courseParams, idParams, tags } from './route-schemas.ts';

const route = routeOptions(tags);

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
      route("Searches the text of a course's documents", {
        params: courseParams,
        querystring: documentSearchQuerySchema,
        response: { 200: documentSearchResponseSchema },
      }),
      async (request) => questions.search(studentId(request), request.params.courseId, request.query.q),
    );

    app.get(
      '/api/documents/:id',
      route('One document with its summary, key terms and questions', {
        params: idParams,
        response: { 200: documentDetailSchema },
      }),
      async (request) => questions.detail(studentId(request), request.params.id),
    );

    app.get(
      '/api/documents/:id/pages',
      route("The document's text, page by page (slides, sheets or sections)", {
        params: idParams,
        response: { 200: documentPagesSchema },
      }),
      async (request) => ({ pages: await questions.pages(studentId(request), request.params.id) }),
    );

    // §7 call 4
    app.post(
      '/api/summarize-text',
      route(
        '§7 call 4: summarises a text',
        { body: summarizeTextInputSchema, response: { 200: summaryResponseSchema } },
        limits.textWork,
      ),
      async (request) => questions.summarizeText(request.body),
    );

    // §7 call 5: the stored summary, or 202 while the document is processed; failures carry the flags.
    app.post(
      '/api/summarize-document',
      route(
        "§7 call 5: a document's summary (202 while it is processed)",
        {
          body: summarizeDocumentInputSchema,
          response: { 200: summaryResponseSchema, 202: summaryPendingSchema, 422: summaryFailedSchema },
        },
        limits.summaries,
      ),
      async (request, reply) => {
        const { status, body } = await questions.summarizeDocument(studentId(request), request.body);
        return reply.status(status).send(body);
      },
    );

    // §7 call 7
    app.post(
      '/api/ask-document',
      route(
        '§7 call 7: answers a question about a document, with citations',
        { body: askDocumentInputSchema, response: { 200: askDocumentResponseSchema } },
        limits.textWork,
      ),
      async (request) => questions.ask(studentId(request), request.body),
    );
  };
}
