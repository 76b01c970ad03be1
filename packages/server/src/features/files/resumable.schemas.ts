import type { RouteOptions } from 'fastify';
import { z } from 'zod';
import { FILES_API, uploadResponseSchema } from '@studybuddy/shared/files';
import { errorResponses } from '../../platform/openapi.ts';

/**
 * The API description of the tus 1.0 routes of resumable.routes.ts. tus answers them itself (the reply is
 * hijacked), so these schemas only describe; the stored-file answer of GET …/:id/result is serialised by its schema.
 */
const tags = ['files'];
const params = z.object({ id: z.string().describe('The upload id of the Location header') });
const noBody = (description: string) => z.null().describe(description);
const tusHeaders = z.looseObject({
  'tus-resumable': z.string().optional().describe('1.0.0'),
  'upload-length': z.string().optional().describe('Creation: the total size in bytes'),
  'upload-metadata': z.string().optional().describe('Creation: `target`, `filename`, `filetype` and the target params'),
  'upload-offset': z.string().optional().describe('PATCH: where this chunk starts'),
});

const SCHEMAS: Record<string, RouteOptions['schema']> = {
  [FILES_API.resumable]: {
    summary: 'tus: creates a resumable upload (signed in); its address is in the Location header',
    tags,
    headers: tusHeaders,
    response: { 201: noBody('Created (Location header)'), ...errorResponses },
  },
  [`${FILES_API.resumable}/:id`]: {
    summary: 'tus: HEAD tells the offset, PATCH appends a chunk (application/offset+octet-stream), DELETE abandons',
    tags,
    params,
    headers: tusHeaders,
    response: {
      200: uploadResponseSchema.describe('PATCH of the last chunk: the stored file (HEAD: Upload-Offset, no body)'),
      204: noBody('PATCH: chunk stored; DELETE: abandoned'),
      ...errorResponses,
    },
  },
  [`${FILES_API.resumable}/:id/result`]: {
    summary: 'The stored file of a finished upload (when the last response was lost)',
    tags,
    params,
    response: { 200: uploadResponseSchema, ...errorResponses },
  },
};

/** onRoute hook of the files plugin: gives the tus routes their description, unless they declare their own. */
export function describeResumableRoute(route: RouteOptions): void {
  if (!route.schema && route.url in SCHEMAS) route.schema = SCHEMAS[route.url];
}
