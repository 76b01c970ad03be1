import type { FastifyError, FastifyInstance } from 'fastify';
import type { ZodType } from 'zod';
import { MSG } from '@studybuddy/shared/messages';
import { FAULT_RETRY_AFTER_S, faultOf, isFaultCode } from './faults.ts';

/** An expected failure with the status, code and message the client sees. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, field?: string) => new AppError(400, 'bad_request', message, field);
export const unauthenticated = () => new AppError(401, 'unauthenticated', MSG.api.unauthenticated);
export const forbidden = (message: string = MSG.api.forbidden) => new AppError(403, 'forbidden', message);
export const notFound = (message: string = MSG.api.notFound) => new AppError(404, 'not_found', message);

/** Validates input with a shared zod schema; the first problem becomes a 400 naming its field. */
export function parse<T>(schema: ZodType<T>, data: unknown): T {
  const result = schema.safeParse(data ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.') || undefined;
  throw new AppError(400, 'validation_failed', issue.message, field);
}

const FASTIFY_CODES: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', message: MSG.api.unsupportedType },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'payload_too_large', message: MSG.api.tooLarge },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', message: MSG.api.badJson },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', message: MSG.api.badJson },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'bad_request', message: MSG.api.badJson },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'payload_too_large', message: MSG.api.tooLarge },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: 'unsupported_media_type', message: MSG.api.unsupportedType },
};

/**
 * An expected error as it is (AppError), a fault of a part the server stands on (database away, storage not
 * answering, disk full: platform/faults.ts) as its clear refusal, or null for a bug.
 */
export function knownError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  const fault = faultOf(err);
  return fault ? new AppError(fault.statusCode, fault.code, fault.message) : null;
}

export function errorBody(code: string, message: string, field?: string) {
  return { error: field ? { code, message, field } : { code, message } };
}

/** One JSON error shape for every failure; stack traces stay in the log. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (err instanceof AppError) {
      if (isFaultCode(err.code)) reply.header('Retry-After', String(FAULT_RETRY_AFTER_S));
      return reply.status(err.statusCode).send(errorBody(err.code, err.message, err.field));
    }
    const known = err.code ? FASTIFY_CODES[err.code] : undefined;
    if (known) return reply.status(known.status).send(errorBody(known.code, known.message));
    if (err.statusCode === 429) {
      return reply.status(429).send(errorBody('rate_limited', MSG.api.rateLimited));
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.status(err.statusCode).send(errorBody('bad_request', err.message));
    }
    const fault = knownError(err);
    if (fault) {
      request.log.warn({ err }, `refused: ${fault.code}`);
      return reply
        .status(fault.statusCode)
        .header('Retry-After', String(FAULT_RETRY_AFTER_S))
        .send(errorBody(fault.code, fault.message));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send(errorBody('internal', MSG.api.internal));
  });
}
