import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { reportInputSchema, reportReceivedSchema } from '@studybuddy/shared/moderation';
import { errorResponses } from '../../platform/openapi.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { ReportService } from './reports.service.ts';

/** `POST /api/reports`: a student reports a student or a message (issue 24 point 2). */
export function reportsRoutes(reports: ReportService) {
  return async (base: FastifyInstance) => {
    signedInOnly(base);
    const app = base.withTypeProvider<ZodTypeProvider>();
    app.post(
      '/api/reports',
      {
        schema: {
          summary: 'Reports a student or a message (201; 200 when the student had reported it already)',
          tags: ['reports'],
          body: reportInputSchema,
          response: { 200: reportReceivedSchema, 201: reportReceivedSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const { created, ...received } = await reports.report(studentId(request), request.body);
        return reply.status(created ? 201 : 200).send(received);
      },
    );
  };
}
