import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_API, exportRequestedSchema, exportTicketQuerySchema } from '@studybuddy/shared/account';
import { fileResponse } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { DataExportService } from './data-export.service.ts';

/** "Download my data": ask (once an hour), then fetch the ZIP from the link the answer gives. */
export function dataExportRoutes(dataExport: DataExportService) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    signedInOnly(app);
    const route = routeOptions(['accounts']);

    app.post(
      ACCOUNT_API.export,
      route("Takes the student's one data download of the hour and answers the link to the ZIP", {
        response: { 200: exportRequestedSchema },
      }),
      async (request) => dataExport.request(studentId(request)),
    );

    app.get(
      ACCOUNT_API.download,
      route('The ZIP of the student’s data, streamed as it is written (the link works once, for its student)', {
        querystring: exportTicketQuerySchema,
        response: { 200: fileResponse('The ZIP') },
      }),
      async (request, reply) => {
        const userId = studentId(request);
        await dataExport.redeem(userId, request.query.ticket);
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="studybuddy-data-${day}.zip"`)
          .header('cache-control', 'no-store')
          .send(dataExport.archive(userId));
      },
    );
  };
}
