import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type WebSocket from 'ws';
import { z } from 'zod';
import {
  REALTIME_TIMING,
  userTopic,
  WS_CLOSE_QUOTA,
  WS_CLOSE_RESTART,
  WS_CLOSE_SIGNED_OUT,
  WS_PATH,
  type ServerFrame,
} from '@studybuddy/shared/realtime';
import { MSG } from '@studybuddy/shared/messages';
import { sinceResultSchema } from '@studybuddy/shared/realtime-responses';
import { releaseWebSocket } from '../connection-guard.ts';
import type { AppContext } from '../context.ts';
import { forbidden, parse } from '../errors.ts';
import { errorResponses } from '../openapi.ts';
import { quotaExceeded } from '../quota.ts';
import { withRequestId } from '../request-context.ts';
import { requireUser, SESSION_COOKIE, signedIn } from '../session.ts';
import { closeReason, errorFrame, onMessage, resync, type FrameHandling } from './socket-frames.ts';
import { startHeartbeat } from './socket-heartbeat.ts';
import { createSocketPresence } from './socket-presence.ts';
import { newSocketState, socketWriter, type SocketState } from './socket-state.ts';

/** Largest frame a client may send. */
const MAX_FRAME_BYTES = 64 * 1024;
const sinceQuerySchema = z.object({ cursor: z.coerce.number().int().nonnegative().optional() });
const wsQuerySchema = sinceQuerySchema;

/**
 * The WebSocket at /api/ws (docs/architecture.md "Real-time"), and its polling fallback GET
 * /api/realtime/since?cursor=N. The socket itself answers pong, resync, subscribe and unsubscribe; which topics
 * a user may hear, every other client frame, and where missed events come from are the features' (registered on
 * `ctx.realtime`).
 */
export function realtimeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const sockets = new Set<SocketState>();
    /** Open sockets per student on every instance together (QUOTA_SOCKETS). */
    const presence = createSocketPresence(ctx.database, ctx.log);
    let closing = false;
    const handling: FrameHandling = { inFlight: new Set(), closing: () => closing };

    // Graceful shutdown (platform/shutdown.ts), before @fastify/websocket's own hook closes sockets without a code:
    // every client hears "service restart", reconnects with back-off and resyncs from its cursor; frames that
    // arrive after this are not handled (the client resends unacknowledged messages by their id).
    app.addHook('preClose', async () => {
      closing = true;
      for (const s of sockets) s.ws.close(WS_CLOSE_RESTART, 'service restart');
      // A client that does not answer the closing handshake must not hold the shutdown (ws would wait 30 s).
      setTimeout(() => {
        for (const s of sockets) s.ws.terminate();
      }, 1000).unref();
      await Promise.allSettled([...handling.inFlight]);
    });
    await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });
    // @fastify/websocket hides its routes from the API description; the socket is part of the API.
    app.addHook('onRoute', (route) => {
      if (route.url === WS_PATH && route.schema) route.schema.hide = false;
    });

    const stopHeartbeat = startHeartbeat(ctx, sockets);
    app.addHook('onReady', () => presence.start());
    app.addHook('onClose', async () => {
      stopHeartbeat();
      await presence.stop().catch((err: unknown) => ctx.log.warn({ err }, 'realtime: leaving presence failed'));
    });

    const upgrades = socketUpgrades(ctx, presence);
    let nextSlot = 0;
    app.get(WS_PATH, { websocket: true, schema: wsSchema, preValidation: upgrades.admit }, async (ws, request) => {
      if (!upgrades.refuseOverQuota(ws, request)) {
        await openSocket(ctx, handling, sockets, nextSlot++, ws, request);
      }
    });
    sinceRoute(ctx, app);
  };
}

const wsSchema = {
  summary: 'The real-time WebSocket (docs/architecture.md "Real-time"): JSON frames both ways',
  description:
    'Upgrade with the session cookie from our own origin. `cursor`: the last message cursor seen; the ' +
    'server sends what was missed after it, then `resync.done`, then live frames (ServerFrame). Client ' +
    'frames: resync, subscribe, unsubscribe, typing, send, pong, visibility (ClientFrame). Close codes: ' +
    `4401 signed out, ${WS_CLOSE_QUOTA} too many sockets, ${WS_CLOSE_RESTART} service restart.`,
  tags: ['realtime'],
  querystring: wsQuerySchema,
  response: { 101: z.null().describe('Switching Protocols: the WebSocket is open'), ...errorResponses },
};

/**
 * Which upgrades may open a socket: from our own origin, signed in, and within the student's sockets on every
 * instance (QUOTA_SOCKETS), decided before the handshake completes; one over the quota is told so and closed.
 */
function socketUpgrades(ctx: AppContext, presence: ReturnType<typeof createSocketPresence>) {
  const allowedOrigin = new URL(ctx.config.publicUrl).origin;
  const socketLimit = ctx.config.limits.socketsPerStudent;
  /** Each upgrade's place under the quota (null: refused). */
  const admitted = new WeakMap<IncomingMessage, string | null>();
  const checkOrigin = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (!origin) return;
    const own = `${request.protocol}://${request.headers.host ?? ''}`;
    if (origin !== allowedOrigin && origin !== own) throw forbidden('Cross-site requests are not allowed.');
  };
  return {
    async admit(request: FastifyRequest) {
      checkOrigin(request);
      const user = requireUser(request);
      parse(wsQuerySchema, request.query);
      // Counted with the student's sockets on every instance, in one transaction (a burst of upgrades on
      // several instances cannot slip past); the place is freed when the connection ends, however it ends.
      const place = await presence.admit(user.id, socketLimit);
      admitted.set(request.raw, place);
      if (place) {
        request.raw.socket.once('close', () => {
          presence.release(place).catch((err: unknown) => ctx.log.warn({ err }, 'realtime: freeing a place'));
        });
      }
    },
    /** True when the upgrade was refused (the socket is told why and closed). */
    refuseOverQuota(ws: WebSocket, request: FastifyRequest): boolean {
      if (admitted.get(request.raw)) return false;
      const refusal = quotaExceeded({ what: MSG.quota.sockets, when: MSG.quota.closeTabs }, socketLimit);
      ws.send(JSON.stringify(errorFrame(refusal)));
      ws.close(WS_CLOSE_QUOTA, closeReason(refusal.message));
      return true;
    },
  };
}

/** An admitted socket: joins the hub on its student's topic, says hello and resyncs from the cursor it names. */
async function openSocket(
  ctx: AppContext,
  handling: FrameHandling,
  sockets: Set<SocketState>,
  slot: number,
  ws: WebSocket,
  request: FastifyRequest,
): Promise<void> {
  const { realtime } = ctx;
  const { hub } = realtime;
  const user = requireUser(request);
  // An open socket leaves its address's connection count (CONNECTIONS_PER_IP); QUOTA_SOCKETS caps it.
  releaseWebSocket(request.raw.socket);
  const write = socketWriter(ws, ctx.metrics);
  const token = request.cookies[SESSION_COOKIE] ?? '';
  const state = newSocketState(ws, user, token, slot, write, () => ws.close(WS_CLOSE_SIGNED_OUT, 'unauthenticated'));
  const { conn } = state;
  // A reconnecting client names its last cursor in the address: the resync starts before any live event
  // can reach it, so nothing arrives twice.
  const since = parse(wsQuerySchema, request.query).cursor;
  if (since !== undefined) state.held = [];
  sockets.add(state);
  hub.add(conn);
  hub.subscribe(conn, userTopic(user.id));
  // What a frame leads to (its log lines, jobs it enqueues) carries the id of the socket's upgrade request.
  const reqId = request.id;
  const log = request.log;
  forgetUpgrade(ws, request, log);
  ws.on('message', (data) => withRequestId(reqId, () => onMessage(ctx, handling, state, data)));
  log.debug('socket opened');
  ws.on('close', () => {
    sockets.delete(state);
    hub.remove(conn);
    realtime.socketClosed({ userId: user.id, socketId: state.id }).catch((err: unknown) => {
      ctx.log.warn({ err }, 'realtime: telling the features a socket closed failed');
    });
    log.debug('socket closed');
  });
  try {
    write(JSON.stringify({ type: 'hello', cursor: await realtime.replay.cursor() } satisfies ServerFrame));
    if (since !== undefined) await resync(ctx, state, since, true);
  } catch (err) {
    ctx.log.error({ err }, 'realtime: hello failed');
    ws.close(1011, 'unavailable');
  }
}

/**
 * Lets the upgrade's HTTP objects go once the socket is open (they were half of what a socket cost: 12.2 KB ->
 * 6.1 KB of RSS with 10,000 open): the response @fastify/websocket assigned to the TCP socket (with it the
 * request, the reply and their headers) is detached from it, and its error listener, whose closure holds the
 * upgrade's request and reply, is replaced by one that logs the same error. Only the socket's own listeners keep what they use (its id and logger).
 */
function forgetUpgrade(ws: WebSocket, request: FastifyRequest, log: FastifyBaseLogger): void {
  const socket = request.raw.socket as Socket & { _httpMessage?: ServerResponse | null };
  const response = socket._httpMessage;
  if (response && response.req === request.raw) response.detachSocket(socket);
  ws.removeAllListeners('error');
  ws.on('error', (err) => log.error(err));
}

/** GET /api/realtime/since: the socket's polling fallback. */
function sinceRoute(ctx: AppContext, app: FastifyInstance) {
  const since = {
    summary: 'Polling fallback of the socket: the events after `cursor` (where to start, without one)',
    tags: ['realtime'],
    querystring: sinceQuerySchema,
    response: { 200: sinceResultSchema, ...errorResponses },
  };
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.get('/api/realtime/since', { preValidation: signedIn, schema: since }, async (request) => {
    const user = requireUser(request);
    const { cursor } = request.query;
    // Without a cursor: where to start from (a client that never had a socket).
    if (cursor === undefined) return { events: [], cursor: await ctx.realtime.replay.cursor(), truncated: false };
    return ctx.realtime.replay.since(user.id, cursor, REALTIME_TIMING.resyncMax);
  });
}
