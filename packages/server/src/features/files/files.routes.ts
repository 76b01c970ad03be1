import type { FastifyInstance } from 'fastify';
import { perMinute } from '../../platform/rate-limit-presets.ts';
import fastifyMultipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { uploadResponseSchema } from '@studybuddy/shared/files';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { errorResponses, fileResponse, noContent } from '../../platform/openapi.ts';
import { requireUser, signedIn } from '../../platform/session.ts';
import { IMMUTABLE_CACHE, type FilesService } from './files.service.ts';
import { resumableRoutes } from './resumable.routes.ts';
import { describeResumableRoute } from './resumable.schemas.ts';
import type { ResumableService } from './resumable.service.ts';

/** Single-request uploads a student may make a minute. */
const UPLOADS_PER_MINUTE = 120;

const contentDisposition = (type: string, name: string) => {
  const inline = type.startsWith('image/') && type !== 'image/svg+xml';
  return `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(name)}`;
};

const uploadParams = z.object({ target: z.string().min(1).max(100).describe('The upload target (profile-image, …)') });
const targetParams = z.record(z.string(), z.string().max(1000)).describe("The target's params (courseId, …)");
const fileParams = z.object({ '*': z.string().describe('The stored object path') });

export function filesRoutes(ctx: AppContext, services: { files: FilesService; resumable: ResumableService }) {
  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['files'];
    app.addHook('onRoute', describeResumableRoute);
    await app.register(resumableRoutes(ctx, services.resumable));
    await app.register(fastifyMultipart, {
      limits: { fileSize: LIMITS.resumableThresholdBytes, files: 1, fields: 5, headerPairs: 50 },
    });

    /** Single-request upload (requirements §9: files of 262144 bytes or less); params of the target in the query. */
    app.post(
      '/api/uploads/:target',
      {
        config: perMinute(ctx.config.rateLimits, UPLOADS_PER_MINUTE),
        preValidation: signedIn,
        schema: {
          summary: `Single-request upload (multipart field \`file\`, up to ${LIMITS.resumableThresholdBytes} bytes)`,
          description: 'multipart/form-data; larger files go up resumably (tus) at /api/resumable.',
          tags,
          params: uploadParams,
          querystring: targetParams,
          response: { 201: uploadResponseSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const user = requireUser(request);
        if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type', MSG.api.unsupportedType);
        const part = await request.file();
        if (!part) throw badRequest(MSG.files.missing, 'file');
        let data: Buffer;
        try {
          data = await part.toBuffer();
        } catch (err) {
          if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
            throw new AppError(413, 'payload_too_large', MSG.files.tooLargeForDirect, 'file');
          }
          throw err;
        }
        const file = await services.files.upload(
          {
            user,
            target: request.params.target,
            params: { ...request.query },
            filename: part.filename,
            filetype: part.mimetype,
          },
          { data },
        );
        return reply.status(201).send({ file });
      },
    );

    /** Stored files, for signed-in readers the folder's access rule allows; content-addressed, so cached for a year. */
    const files = {
      summary: "A stored file, for signed-in readers the folder's access rule allows (cached for a year)",
      tags,
      params: fileParams,
      response: { 200: fileResponse('The file'), 304: noContent, ...errorResponses },
    };
    app.get('/api/files/*', { schema: files }, async (request, reply) => {
      const reader = requireUser(request);
      const { meta, body } = await services.files.read(reader, request.params['*']);
      const etag = `"${Buffer.from(meta.md5Hash, 'base64').toString('hex')}"`;
      reply
        .header('Cache-Control', meta.cacheControl ?? IMMUTABLE_CACHE)
        .header('ETag', etag)
        .header('Last-Modified', new Date(meta.updated).toUTCString())
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Vary', 'Cookie');
      if (request.headers['if-none-match'] === etag) {
        body.destroy();
        return reply.status(304).send();
      }
      return reply
        .type(meta.contentType)
        .header('Content-Length', meta.size)
        .header(
          'Content-Disposition',
          contentDisposition(meta.contentType, meta.customMetadata.originalName ?? meta.name),
        )
        .send(body);
    });
  };
}
