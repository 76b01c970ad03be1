import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@tus/server';
import { FILES_API } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, errorBody, knownError, notFound } from '../../platform/errors.ts';
import { requireUser, type SessionUser } from '../../platform/session.ts';
import { uploadTarget } from './files.service.ts';
import { paramsOf } from './resumable-completion.ts';
import type { ResumableService } from './resumable.service.ts';

/** Largest resumable upload of any target; each target's own limit is checked when the upload is created. */
const RESUMABLE_MAX_BYTES = 1024 * 1024 * 1024;
const SWEEP_MS = 30 * 60 * 1000;
const ID = /^[A-Za-z0-9_-]{1,64}\.[a-f0-9]{24}$/;

type TusRequest = Request & { runtime?: { node?: { req: IncomingMessage } } };

const NOT_FOUND = { status_code: 404, body: JSON.stringify(errorBody('not_found', MSG.api.notFound)) };

/** The upload id from the path alone: a query string (`…/<mine>?x=/<theirs>`) never names an upload. */
export function uploadIdOf(url: string): string | undefined {
  const { pathname } = new URL(url, 'http://localhost');
  const prefix = `${FILES_API.resumable}/`;
  if (!pathname.startsWith(prefix)) return undefined;
  const id = pathname.slice(prefix.length);
  return ID.test(id) ? id : undefined;
}

const ownedBy = (user: SessionUser, id: string) => ID.test(id) && id.startsWith(`${user.id}.`);

/** A failure in the shape tus hooks throw, with our standard error JSON as the body. */
function tusError(err: unknown): { status_code: number; body: string } {
  const known = knownError(err);
  if (known) {
    return { status_code: known.statusCode, body: JSON.stringify(errorBody(known.code, known.message, known.field)) };
  }
  return { status_code: 500, body: JSON.stringify(errorBody('internal', MSG.api.internal)) };
}

/**
 * tus 1.0 resumable uploads (spec: files over 262144 bytes): POST creates, PATCH appends at the offset,
 * HEAD tells a reconnecting client where to resume, DELETE cancels. The complete file is checked and written to
 * the storage (disk or S3) and the final PATCH answers with the stored file's JSON. Upload ids are
 * `<userId>.<random>`, read from the path only, and only their owner may touch them (checked by the route, again
 * on every tus request and at completion).
 *
 * Several instances: each upload has a resumable_uploads row (quotas, lock, completion) and, with STORAGE=s3, its
 * bytes in the bucket, so any instance continues any upload and the complete file is stored exactly once.
 * Quotas at creation: uploads started per day, unfinished uploads at once, and storage (what the student keeps,
 * plus what their unfinished uploads declared, plus this Upload-Length).
 */
export function resumableRoutes(ctx: AppContext, resumable: ResumableService) {
  const owners = new WeakMap<IncomingMessage, SessionUser>();
  const ownerOf = (req: Request) => {
    const raw = (req as TusRequest).runtime?.node?.req;
    const user = raw && owners.get(raw);
    if (!user) throw { status_code: 401, body: JSON.stringify(errorBody('unauthenticated', MSG.api.unauthenticated)) };
    return user;
  };

  const tus = new Server({
    path: FILES_API.resumable,
    datastore: resumable.datastore,
    locker: resumable.locker,
    relativeLocation: true,
    // Locations are relative, so no host or scheme is read from the request; and were they not, the forwarded
    // headers are only to be believed from a trusted proxy, which tus cannot tell (Fastify's request does).
    respectForwardedHeaders: false,
    maxSize: RESUMABLE_MAX_BYTES,
    namingFunction: (req) => `${ownerOf(req).id}.${randomBytes(12).toString('hex')}`,
    getFileIdFromRequest: (req) => uploadIdOf(req.url),
    async onIncomingRequest(req, id) {
      if (!ownedBy(ownerOf(req), id)) throw NOT_FOUND;
    },
    async onUploadCreate(req, upload) {
      try {
        const user = ownerOf(req);
        const meta = upload.metadata ?? {};
        const target = uploadTarget(ctx, meta.target ?? undefined);
        const size = upload.size;
        if (size === undefined) throw new AppError(400, 'bad_request', MSG.files.needsLength);
        if (size === 0) throw new AppError(400, 'bad_request', MSG.files.empty, 'file');
        if (size > target.maxBytes) throw new AppError(413, 'payload_too_large', MSG.files.tooLarge, 'file');
        const declared = meta.filetype ?? '';
        if (target.kind === 'image' && declared && !declared.startsWith('image/')) {
          throw new AppError(400, 'bad_request', MSG.files.notAnImage, 'file');
        }
        // Authorises the destination now, before any byte is sent.
        await target.folder(user, paramsOf(meta));
        // Recorded with the student's other uploads in view (on every instance), or refused.
        await resumable.admit({ id: upload.id, userId: user.id, size, metadata: meta });
        return {};
      } catch (err) {
        throw tusError(err);
      }
    },
    async onUploadFinish(req, upload) {
      const user = ownerOf(req);
      if (!ownedBy(user, upload.id)) throw NOT_FOUND;
      try {
        const file = await resumable.complete(upload.id, user);
        return {
          status_code: 200,
          headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' },
          body: JSON.stringify({ file }),
        };
      } catch (err) {
        if (!knownError(err)) ctx.log.error({ err }, 'storing a resumable upload failed');
        throw tusError(err);
      }
    },
    onResponseError(_req, err) {
      if ('status_code' in err && err.body.startsWith('{')) return undefined;
      // The staging store failing (S3 not answering, the disk full) is a clear refusal, not a 500.
      if (!('status_code' in err) && knownError(err)) return tusError(err);
      const status = 'status_code' in err ? err.status_code : 500;
      const message = 'status_code' in err && status < 500 ? err.body.trim() : MSG.api.internal;
      return {
        status_code: status,
        body: JSON.stringify(errorBody(status < 500 ? 'upload_error' : 'internal', message)),
      };
    },
  });

  const sweep = () => resumable.sweep();

  return async (app: FastifyInstance) => {
    const sweeper = setInterval(() => void sweep().catch((err) => ctx.log.warn({ err }, 'upload sweep')), SWEEP_MS);
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
    app.addHook('onReady', async () => {
      void sweep().catch((err) => ctx.log.warn({ err }, 'upload sweep'));
    });

    // The body of a PATCH is streamed to the staging store by tus, never buffered by Fastify.
    app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

    const handle = async (request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) => {
      const user = requireUser(request);
      const { id } = request.params;
      if (id !== undefined && !ownedBy(user, id)) throw notFound();
      // tus reads the id from the raw URL: hand it the path alone.
      request.raw.url = request.raw.url?.split('?')[0];
      owners.set(request.raw, user);
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
    };
    app.post(FILES_API.resumable, handle);
    app.route({ method: ['HEAD', 'PATCH', 'DELETE'], url: `${FILES_API.resumable}/:id`, handler: handle });

    /** The stored file of a finished upload, for a client whose final response was lost (stored now if need be). */
    app.get<{ Params: { id: string } }>(`${FILES_API.resumable}/:id/result`, async (request, reply) => {
      const user = requireUser(request);
      const { id } = request.params;
      if (!ownedBy(user, id)) throw notFound();
      const file = await resumable.complete(id, user);
      return reply.header('Cache-Control', 'no-store').send({ file });
    });
  };
}
