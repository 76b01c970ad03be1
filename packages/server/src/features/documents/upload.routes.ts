import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DOCUMENT_MAX_UPLOAD_BYTES, formatFileSize } from '@studybuddy/shared/documents';
import { createDocumentInputSchema, fetchCourseFilesInputSchema } from '@studybuddy/shared/documents-api';
import {
  courseDocumentsResponseSchema,
  fetchCourseFilePendingSchema,
  fetchCourseFilesResponseSchema,
  uploadDocumentResponseSchema,
} from '@studybuddy/shared/documents-responses';
import { fileResponse } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { studentId } from '../../platform/signed-in.ts';
import type { RouteRateLimit } from '../../platform/rate-limit-presets.ts';
import { readUpload } from './upload-multipart.ts';
import type { UploadService } from './upload.service.ts';
import { courseParams, idParams, tags } from './route-schemas.ts';

const route = routeOptions(tags);

const refreshQuery = z.object({ refresh: z.enum(['0', '1']).optional() });
const uploadQuery = z.object({
  courseId: z.string().optional().describe('The course (or send it as the multipart field `courseId`)'),
});

/** Upload: a course's documents, §7 calls 3 and 6, finished uploads becoming documents, and the file itself. */
export function uploadRoutes(upload: UploadService, limits: { files: RouteRateLimit }) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/courses/:courseId/documents',
      route("The course's documents (uploads and Canvas files); refresh=1 asks Canvas again", {
        params: courseParams,
        querystring: refreshQuery,
        response: { 200: courseDocumentsResponseSchema },
      }),
      async (request) => upload.listCourse(studentId(request), request.params.courseId, request.query.refresh === '1'),
    );

    app.get(
      '/api/documents/:id/file',
      route('Downloads the uploaded file', {
        params: idParams,
        response: { 200: fileResponse('The file, as an attachment') },
      }),
      async (request, reply) => {
        const file = await upload.openFile(studentId(request), request.params.id);
        return reply
          .header('Content-Type', file.contentType)
          .header('Content-Length', file.size)
          .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(file.name)}`)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Cache-Control', 'private, no-cache')
          .send(file.body);
      },
    );

    // §7 call 6: multipart with the file (and the course it belongs to).
    app.post(
      '/api/upload-document',
      route(
        '§7 call 6: uploads a document (multipart: `file` and `courseId`)',
        {
          description: `multipart/form-data with the field \`file\` (at most ${formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES)}).`,
          querystring: uploadQuery,
          response: { 201: uploadDocumentResponseSchema },
        },
        limits.files,
      ),
      async (request, reply) => {
        const declared = Number(request.headers['content-length']) || 0;
        const read = (tmpFile: string) => readUpload(request, tmpFile);
        return reply.status(201).send(await upload.upload(studentId(request), declared, read));
      },
    );

    app.post(
      '/api/documents',
      route('Turns a finished upload (files platform) into a course document', {
        body: createDocumentInputSchema,
        response: { 201: uploadDocumentResponseSchema },
      }),
      async (request, reply) => reply.status(201).send(await upload.createFromUpload(studentId(request), request.body)),
    );

    // §7 call 3: the course's Canvas files (with module names), or one file's content with file_id.
    app.post(
      '/api/fetch-course-files',
      route(
        "§7 call 3: the course's Canvas files, or one file's content (202 while it is processed)",
        {
          body: fetchCourseFilesInputSchema,
          response: { 200: fetchCourseFilesResponseSchema, 202: fetchCourseFilePendingSchema },
        },
        limits.files,
      ),
      async (request, reply) => {
        const { status, body } = await upload.fetchCourseFiles(studentId(request), request.body);
        return reply.status(status).send(body);
      },
    );
  };
}
