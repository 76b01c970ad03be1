import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

/**
 * One request id across an HTTP request, the jobs it enqueues and the socket events of a WebSocket it opened.
 * Code that logs through `ctx.log` (not `request.log`) still gets the id: the logger's mixin reads it from here.
 */
const storage = new AsyncLocalStorage<{ reqId: string }>();

export const REQUEST_ID_HEADER = 'x-request-id';
/** What a proxy's id may look like (UUIDs, nginx's hex `$request_id`, …): anything else gets a fresh id. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of the request, job or socket event being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.reqId;
}

/** Runs `fn` as part of request `reqId` (none: outside any request). */
export function withRequestId<T>(reqId: string | undefined, fn: () => T): T {
  return reqId ? storage.run({ reqId }, fn) : storage.exit(fn);
}

/** Fastify options: a UUID per request, or the proxy's `X-Request-Id` when the proxy is trusted. */
export function requestIdOptions(trustProxy: boolean): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> {
  return {
    requestIdHeader: false,
    genReqId(req: IncomingMessage) {
      const incoming = trustProxy ? req.headers[REQUEST_ID_HEADER] : undefined;
      return typeof incoming === 'string' && INCOMING_ID.test(incoming) ? incoming : randomUUID();
    },
  };
}

/** Answers every request with its id and makes the id current for everything the request runs. */
export function installRequestContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('X-Request-Id', request.id);
    storage.run({ reqId: request.id }, done);
  });
  // Body parsing continues from the request stream's events, outside the context entered above.
  app.addHook('preValidation', (request, _reply, done) => {
    storage.run({ reqId: request.id }, done);
  });
}

/** Whether a logger (a request's, a job's) carries a reqId of its own; asked once per logger. */
const boundToRequest = new WeakMap<object, boolean>();

/** Pino mixin: lines logged while a request id is current carry it, unless the logger is bound to one already. */
export function requestIdMixin(_obj: object, _level: number, logger: { bindings(): Record<string, unknown> }): object {
  const reqId = storage.getStore()?.reqId;
  if (!reqId) return {};
  let bound = boundToRequest.get(logger);
  if (bound === undefined) boundToRequest.set(logger, (bound = 'reqId' in logger.bindings()));
  return bound ? {} : { reqId };
}
