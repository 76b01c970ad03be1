import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { BlockList, isIP, type Socket } from 'node:net';
import { finished } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerFactoryHandler } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import type { TrustProxy } from '../config.ts';
import type { ConnectionLimits } from '../connection-config.ts';
import { answerAndClose, endConnection } from './connection-answers.ts';
import { isSocketUpgrade } from './fair-share.ts';
import { createSlowBodyRule, isConnection } from './slow-body-rule.ts';

/**
 * Slow clients (issue 31 point 4). A client that trickles its request holds a connection (a socket, memory, a place
 * in the per-IP counts) for as long as it likes unless the server cuts it off; and nothing stops one address from
 * opening thousands. Four rules, each with a setting (connection-config.ts):
 *
 * - Headers: the request line and headers must have arrived HEADERS_TIMEOUT after their first byte (Node's
 *   `headersTimeout`, checked every second rather than Node's 30 s), or the answer is 408 and the connection closes.
 *   A connection that sends nothing at all is held to the same time.
 * - Body: a minimum rate, not a total time, so a slow phone's 25 MB upload finishes: BODY_TIMEOUT to start, and one
 *   more second for every BODY_MIN_BYTES_PER_SECOND bytes received. Once the request has its turn (past the request
 *   hooks: fair share, session), time the server is not reading its body (the socket paused by back-pressure:
 *   storage being slow) does not count against the client; time waiting for its turn does, as that queue is its
 *   own client's other requests. A body behind its rate is cut off with 408. Node's total `requestTimeout`
 *   (REQUEST_TIMEOUT) stays off unless set.
 * - Idle: a request with nothing sent either way for CONNECTION_TIMEOUT is closed (Fastify's `connectionTimeout`);
 *   an idle keep-alive connection after KEEP_ALIVE_TIMEOUT.
 * - Connections per address (CONNECTIONS_PER_IP). A TCP-level count can only see the peer, and behind a proxy the
 *   peer is the proxy, whose connections carry everyone. So a connection from a peer that TRUST_PROXY does not trust
 *   is counted by that peer from accept to close, and the one over the cap is closed at once, before anything is
 *   read; a connection from a trusted proxy is not counted, and instead each request it carries counts for the
 *   forwarded client address (request.ip) from its headers until its answer is sent and its body has arrived
 *   (trickling included), the one over the cap answered 429 with `Connection: close`. That count is taken on the
 *   raw request, before Fastify sees it (the server's request listener, `serverFactory`): a flood's refusals, which
 *   arrive through the same proxy as everyone else, then cost no request objects, hooks or logging each, which had
 *   held the event loop, and so the accepting of every other connection, for hundreds of milliseconds (issue 23).
 *   Slow headers through a proxy are the proxy's to time out (its address is not known before they are complete);
 *   the headers rule still ends the proxy's connection.
 *
 * WebSockets are exempt from all of it once open (they live for hours, ping every 20 s, and QUOTA_SOCKETS caps a
 * student's): none of the request rules apply to an upgrade, and `releaseWebSocket` takes an opened socket out of its
 * peer's count.
 */

export interface ConnectionGuardStats {
  /** Connections closed at accept: their peer held CONNECTIONS_PER_IP already. */
  refused: number;
  /** Requests through a trusted proxy answered 429: their forwarded address had CONNECTIONS_PER_IP open. */
  tooManyRequests: number;
  /** Connections ended by the headers rule (HEADERS_TIMEOUT, or REQUEST_TIMEOUT when set). */
  cutHeaders: number;
  /** Requests ended by the body rate rule. */
  cutBody: number;
}

export interface ConnectionGuard {
  readonly limits: ConnectionLimits;
  readonly stats: ConnectionGuardStats;
  /** What an address holds now: its connections (untrusted peers) plus its open requests through trusted proxies. */
  open(address: string): number;
  /**
   * Fastify options: the timeouts, a client-error handler that answers in the API's error shape, and the HTTP server
   * whose request listener counts forwarded addresses before Fastify's handler.
   */
  serverOptions(): {
    connectionTimeout: number;
    keepAliveTimeout: number;
    requestTimeout: number;
    http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
    clientErrorHandler: (this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) => void;
    serverFactory: (handler: FastifyServerFactoryHandler) => Server;
  };
  /** Installs the per-address count and the body rule; call first among the request hooks. */
  install(app: FastifyInstance): void;
}

/** The ranges TRUST_PROXY may name (as proxy-addr, which Fastify uses, defines them). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** Whether a TCP peer is a proxy TRUST_PROXY trusts (a hop count trusts every peer: all traffic comes through it). */
export function trustedPeer(trust: TrustProxy): (address: string) => boolean {
  if (trust === false) return () => false;
  if (typeof trust === 'number') return () => trust > 0;
  const list = new BlockList();
  for (const entry of trust) {
    for (const range of NAMED_RANGES[entry] ?? [entry]) {
      const [address = '', prefix] = range.split('/');
      if (prefix === undefined) list.addAddress(address, family(address));
      else list.addSubnet(address, Number(prefix), family(address));
    }
  }
  return (address) => isIP(address) !== 0 && list.check(address, family(address));
}

/**
 * The addresses of a request as proxy-addr lists them (which Fastify's request.ip reads): the TCP peer, then the
 * X-Forwarded-For entries from the right. Parsed as @fastify/forwarded does, so both always agree.
 */
function forwardedAddresses(
  peer: string | undefined,
  header: string | string[] | undefined,
): Array<string | undefined> {
  const result: Array<string | undefined> = [peer];
  if (typeof header !== 'string' || !header) return result;
  let end = header.length;
  let start = end;
  for (let i = end - 1; i >= 0; i--) {
    const char = header[i];
    if (char === ' ' || char === '\t') {
      if (start === end) start = end = i;
    } else if (char === ',') {
      if (start !== end) result.push(header.slice(start, end));
      start = end = i;
    } else {
      start = i;
    }
  }
  if (start !== end) result.push(header.slice(start, end));
  return result;
}

/**
 * The client's address of a raw request, as Fastify's request.ip gives it for TRUST_PROXY: the peer, or with a proxy
 * the first X-Forwarded-For entry from the right that is not a trusted proxy (a hop count trusts that many hops).
 */
export function clientAddressOf(trust: TrustProxy): (request: IncomingMessage) => string | undefined {
  if (trust === false || trust === 0) return (request) => request.socket?.remoteAddress;
  const listed = trustedPeer(trust);
  const trustedAt =
    typeof trust === 'number'
      ? (_: string | undefined, i: number) => i < trust
      : (a: string | undefined) => !!a && listed(a);
  return (request) => {
    const addresses = forwardedAddresses(request.socket?.remoteAddress, request.headers['x-forwarded-for']);
    for (let i = 0; i < addresses.length - 1; i++) if (!trustedAt(addresses[i], i)) return addresses[i];
    return addresses[addresses.length - 1];
  };
}

/** One key per client whether it reached a dual-stack listener as IPv4 or as IPv4-mapped IPv6. */
const addressKey = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** The WebSocket opened on this connection: it leaves its peer's count (QUOTA_SOCKETS caps a student's sockets). */
const webSocketRelease = new WeakMap<Socket, () => void>();
export function releaseWebSocket(socket: Socket): void {
  webSocketRelease.get(socket)?.();
}

const guards = new WeakMap<object, ConnectionGuard>();
/** The guard installed on an app's HTTP server (tests read its counts). */
export const connectionGuardOf = (app: FastifyInstance) => guards.get(app.server);

export function createConnectionGuard(limits: ConnectionLimits, trustProxy: TrustProxy): ConnectionGuard {
  const stats: ConnectionGuardStats = { refused: 0, tooManyRequests: 0, cutHeaders: 0, cutBody: 0 };
  const counts = new Map<string, number>();
  const trusted = trustedPeer(trustProxy);
  const clientAddress = clientAddressOf(trustProxy);
  /** Sockets counted by their peer (a request on one is not counted again). */
  const peerCounted = new WeakSet<Socket>();
  const lastWarned = new Map<string, number>();
  let log: FastifyBaseLogger | undefined;

  const take = (key: string) => {
    const n = (counts.get(key) ?? 0) + 1;
    if (n > limits.perIp) return false;
    counts.set(key, n);
    return true;
  };
  const give = (key: string) => {
    const n = (counts.get(key) ?? 0) - 1;
    if (n > 0) counts.set(key, n);
    else counts.delete(key);
  };
  /** One warning per address a minute: a flood of refusals is one line, not thousands. */
  const warnOnce = (key: string, fields: object, msg: string) => {
    const now = Date.now();
    if (now - (lastWarned.get(key) ?? 0) < 60_000) return;
    lastWarned.set(key, now);
    if (lastWarned.size > 10_000) lastWarned.clear();
    log?.warn({ ...fields, address: key, perIp: limits.perIp }, msg);
  };

  const bodyRule = createSlowBodyRule(limits, stats);

  /**
   * A request through a trusted proxy counts for its forwarded address until it is answered (or the connection is
   * gone) and its body has arrived (or will not); over the cap it is answered 429 on the socket before Fastify builds
   * anything for it. False when refused.
   */
  const admit = (request: IncomingMessage, response: ServerResponse): boolean => {
    const socket = request.socket;
    if (peerCounted.has(socket)) return true;
    const key = addressKey(clientAddress(request) ?? '');
    if (!take(key)) {
      stats.tooManyRequests++;
      warnOnce(key, { via: socket.remoteAddress }, 'too many requests open from one address');
      answerAndClose(response, 429, 'too_many_connections', MSG.connections.tooMany);
      return false;
    }
    let pending = 2;
    const done = () => {
      if (--pending === 0) give(key);
    };
    response.once('close', done);
    finished(request, () => done());
    return true;
  };

  const guard: ConnectionGuard = {
    limits,
    stats,
    open: (address) => counts.get(addressKey(address)) ?? 0,

    serverOptions: () => guardServerOptions(limits, stats, admit),

    install(app) {
      log = app.log;
      guards.set(app.server, guard);

      app.server.on('connection', (socket: Socket) => {
        const peer = socket.remoteAddress;
        if (!peer || trusted(peer)) return;
        const key = addressKey(peer);
        if (!take(key)) {
          stats.refused++;
          warnOnce(key, {}, 'too many connections from one address: connection refused');
          socket.destroy();
          return;
        }
        peerCounted.add(socket);
        let counted = true;
        const release = () => {
          if (!counted) return;
          counted = false;
          give(key);
        };
        socket.once('close', release);
        webSocketRelease.set(socket, release);
      });

      // The count per forwarded address is taken before Fastify (serverOptions' serverFactory); here the body rule.
      app.addHook('onRequest', async (request) => {
        if (isSocketUpgrade(request) || !isConnection(request.raw.socket)) return;
        bodyRule.watch(request);
      });

      // Past the request hooks (fair share, session): the body is the server's to read from here on.
      app.addHook('preParsing', async (request, _reply, payload) => {
        bodyRule.ourTurn(request);
        return payload;
      });

      app.addHook('onClose', async () => bodyRule.stop());
    },
  };
  return guard;
}

/**
 * The guard's Fastify options: the timeouts, a client-error handler answering in the API's error shape, and the
 * HTTP server whose request listener `admit`s (counts the forwarded address) before Fastify's handler.
 */
function guardServerOptions(
  limits: ConnectionLimits,
  stats: ConnectionGuardStats,
  admit: (request: IncomingMessage, response: ServerResponse) => boolean,
): ReturnType<ConnectionGuard['serverOptions']> {
  const http = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // Node looks for expired headers every 30 s by default: a 30 s limit could then take a minute.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
  return {
    connectionTimeout: limits.idleTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    http,
    // The server Fastify would make (its timeouts set as Fastify sets them), with the forwarded-address count
    // ahead of Fastify's handler. WebSocket upgrades take the 'upgrade' event instead and are never counted.
    serverFactory(handler) {
      const server = createServer(http, (request, response) => {
        if (admit(request, response)) handler(request, response);
      });
      server.keepAliveTimeout = limits.keepAliveTimeoutMs;
      server.requestTimeout = limits.requestTimeoutMs;
      server.setTimeout(limits.idleTimeoutMs);
      return server;
    },
    clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket) {
      if (err.code === 'ECONNRESET' || socket.destroyed) return;
      if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
        stats.cutHeaders++;
        this.log.info({ peer: socket.remoteAddress }, 'request headers arriving too slowly: connection closed');
        return endConnection(socket, 408, 'request_timeout', MSG.connections.tooSlow, err);
      }
      if (err.code === 'HPE_HEADER_OVERFLOW') {
        return endConnection(socket, 431, 'headers_too_large', MSG.connections.headersTooLarge, err);
      }
      this.log.debug({ err, peer: socket.remoteAddress }, 'unreadable request');
      return endConnection(socket, 400, 'bad_request', MSG.connections.unreadable, err);
    },
  };
}
