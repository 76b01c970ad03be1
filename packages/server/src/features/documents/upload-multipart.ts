import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { DOCUMENT_MAX_UPLOAD_BYTES, formatFileSize } from '@studybuddy/shared/documents';
import { courseIdSchema } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { AppError, badRequest, parse } from '../../platform/errors.ts';
import type { UploadedFileInput } from './upload.service.ts';

/**
 * Reads the multipart upload: the file (up to the limit), streamed to `tmpFile` so sixty 25 MB uploads at once
 * never sit in memory, and the course it belongs to. The caller removes `tmpFile`.
 */
export async function readUpload(request: FastifyRequest, tmpFile: string): Promise<UploadedFileInput> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', MSG.api.unsupportedType);
  const query = request.query as Record<string, unknown>;
  let courseId = typeof query.courseId === 'string' ? query.courseId : undefined;
  let file: { filename: string; mimetype: string; file: string; size: number } | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: DOCUMENT_MAX_UPLOAD_BYTES, files: 1, fields: 5 } })) {
      if (part.type === 'file') {
        let size = 0;
        part.file.on('data', (chunk: Buffer) => (size += chunk.length));
        // A 1 MB buffer lets the chunks that arrive while one write is under way go out together (writev).
        await pipeline(part.file, createWriteStream(tmpFile, { highWaterMark: 2 ** 20 }));
        if (part.file.truncated) throw Object.assign(new Error('file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
        file = { filename: part.filename, mimetype: part.mimetype, file: tmpFile, size };
      } else if (part.fieldname === 'courseId' && typeof part.value === 'string') {
        courseId = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        413,
        'file_too_large',
        MSG.courses.fileTooLarge(formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES)),
        'file',
      );
    }
    if (code?.startsWith('FST_')) throw badRequest(MSG.courses.uploadFailed, 'file');
    throw err;
  }
  if (!file?.filename) throw badRequest(MSG.courses.fileRequired, 'file');
  return { ...file, courseId: parse(courseIdSchema, courseId) };
}
