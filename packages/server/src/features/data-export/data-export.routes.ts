import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ACCOUNT_API, exportRequestedSchema, exportTicketQuerySchema } from '@studybuddy/shared/account';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, fileResponse } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { exportArchive, redeemTicket, requestExport } from './data-export.service.ts';

/** "Download my data": ask (once an hour), then fetch the ZIP from the link the answer gives. */
export function dataExportRoutes(ctx: AppContext) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['accounts'];

    app.post(
      ACCOUNT_API.export,
      {
        preValidation: signedIn,
        schema: {
          summary: "Takes the student's one data download of the hour and answers the link to the ZIP",
          tags,
          response: { 200: exportRequestedSchema, ...errorResponses },
        },
      },
      async (request) => requestExport(ctx, requireUser(request).id),
    );

    app.get(
      ACCOUNT_API.download,
      {
        preValidation: signedIn,
        schema: {
          summary: 'The ZIP of the student’s data, streamed as it is written (the link works once, for its student)',
          tags,
          querystring: exportTicketQuerySchema,
          response: { 200: fileResponse('The ZIP'), ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        await redeemTicket(ctx, user.id, request.query.ticket);
        const day = new Date().toISOString().slice(0, 10);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="studybuddy-data-${day}.zip"`)
          .header('cache-control', 'no-store')
          .send(exportArchive(ctx, user.id));
      },
    );
  };
}
