import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config.ts';

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

/** The ranges Fastify (proxy-addr) knows by name (config.ts NAMED_PROXY_RANGES). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * Whether the TCP peer is a proxy by TRUST_PROXY: with a hop count every peer is (the operator says a proxy is in
 * front); with addresses, only a listed one (an IPv4-mapped IPv6 peer matches its IPv4 entry).
 */
export function isTrustedPeer(trustProxy: TrustProxy): (address: string | undefined) => boolean {
  if (trustProxy === false) return () => false;
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const list = new BlockList();
  for (const entry of trustProxy.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address = '', prefix] = entry.split('/');
    const family = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return (address) => !!address && list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

/** Fastify options: a UUID per request, or the proxy's `X-Request-Id` when it comes from a trusted proxy. */
export function requestIdOptions(trustProxy: TrustProxy): Pick<FastifyServerOptions, 'genReqId' | 'requestIdHeader'> {
  const trusted = isTrustedPeer(trustProxy);
  return {
    requestIdHeader: false,
    genReqId(req: IncomingMessage) {
      const incoming = trusted(req.socket?.remoteAddress) ? req.headers[REQUEST_ID_HEADER] : undefined;
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
