import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type WebSocket from 'ws';
import { z } from 'zod';
import {
  clientFrameSchema,
  REALTIME_TIMING,
  userTopic,
  WS_CLOSE_QUOTA,
  WS_CLOSE_RESTART,
  WS_CLOSE_SIGNED_OUT,
  WS_PATH,
  type ClientFrame,
  type ServerFrame,
} from '@studybuddy/shared/realtime';
import { MSG } from '@studybuddy/shared/messages';
import { sinceResultSchema } from '@studybuddy/shared/realtime-responses';
import { releaseWebSocket } from '../connection-guard.ts';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, knownError, parse } from '../errors.ts';
import { errorResponses } from '../openapi.ts';
import { quotaExceeded } from '../quota.ts';
import { withRequestId } from '../request-context.ts';
import { requireUser, SESSION_COOKIE, signedIn } from '../session.ts';
import type { Connection } from './hub.ts';
import { createSocketPresence } from './socket-presence.ts';

/** Largest frame a client may send. */
const MAX_FRAME_BYTES = 64 * 1024;
/** A socket that cannot keep up with this much unsent data is dropped (it resyncs when it reconnects). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Client frames allowed per second (token bucket, burst twice that). */
const OPS_PER_SECOND = 50;
/** Sessions of open sockets are checked again this often (logout or expiry closes the socket). */
const SESSION_RECHECK_MS = 60_000;
/** Parts of the ping interval the sockets are spread over. */
const PING_SLOTS = 20;

const sinceQuerySchema = z.object({ cursor: z.coerce.number().int().nonnegative().optional() });
const wsQuerySchema = sinceQuerySchema;

interface SocketState {
  ws: WebSocket;
  conn: Connection;
  alive: boolean;
  tokens: number;
  refilledAt: number;
  checkedAt: number;
  /** Which of the PING_SLOTS parts of the ping interval this socket is pinged in. */
  slot: number;
  token: string;
  /** Live frames held back while a resync is answered (then sent, less the messages the resync carried). */
  held: (string | Buffer)[] | null;
  /** This socket's id for the features that track it (push presence). */
  id: string;
  write(frame: string | Buffer): void;
}

function errorFrame(err: unknown, ref?: string): ServerFrame {
  const known = knownError(err);
  if (known) {
    const { statusCode: status, message, code, field } = known;
    return { type: 'error', ref, status, message, code, ...(field ? { field } : {}) };
  }
  return { type: 'error', ref, status: 500, message: 'Something went wrong on our side. Please try again.' };
}

/** A close reason may hold at most 123 bytes. */
function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  return bytes.length <= 123
    ? text
    : bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '') + '...';
}

/**
 * The WebSocket at /api/ws (docs/architecture.md "Real-time"), and its polling fallback GET
 * /api/realtime/since?cursor=N. The socket itself answers pong, resync, subscribe and unsubscribe; which topics
 * a user may hear, every other client frame, and where missed events come from are the features' (registered on
 * `ctx.realtime`).
 */
export function realtimeRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const allowedOrigin = new URL(ctx.config.publicUrl).origin;
    const { realtime } = ctx;
    const { hub } = realtime;
    const sockets = new Set<SocketState>();
    /** Open sockets per student on every instance together (QUOTA_SOCKETS). */
    const presence = createSocketPresence(ctx.database, ctx.log);
    /** Each upgrade's place under the quota (null: refused), decided before its handshake completes. */
    const admitted = new WeakMap<IncomingMessage, string | null>();
    const socketLimit = ctx.config.limits.socketsPerStudent;
    let nextSlot = 0;
    let closing = false;
    /** Frames being handled (a send being stored): they finish before the database closes. */
    const inFlight = new Set<Promise<void>>();

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
      await Promise.allSettled([...inFlight]);
    });
    await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES } });
    // @fastify/websocket hides its routes from the API description; the socket is part of the API.
    app.addHook('onRoute', (route) => {
      if (route.url === WS_PATH && route.schema) route.schema.hide = false;
    });

    const checkOrigin = (request: FastifyRequest) => {
      const origin = request.headers.origin;
      if (!origin) return;
      const own = `${request.protocol}://${request.headers.host ?? ''}`;
      if (origin !== allowedOrigin && origin !== own) throw forbidden('Cross-site requests are not allowed.');
    };

    /**
     * Sessions are checked one after the other: a thousand sockets due at once must not put a thousand queries
     * in front of the messages (PGlite has one connection, a pool a few).
     */
    let rechecking = false;
    const recheckSessions = async (due: SocketState[]) => {
      rechecking = true;
      try {
        for (const s of due) {
          if (!sockets.has(s)) continue;
          s.checkedAt = Date.now();
          try {
            const user = await ctx.sessions.find(s.token);
            if (!user || user.id !== s.conn.userId) s.ws.close(WS_CLOSE_SIGNED_OUT, 'unauthenticated');
          } catch (err) {
            ctx.log.warn({ err }, 'realtime: session recheck failed');
          }
        }
      } finally {
        rechecking = false;
      }
    };

    // Each socket is pinged once per interval, but not all in the same moment: the interval is cut into slots
    // and each socket has one, so a thousand sockets never stall the event loop at once. The JSON ping is the
    // only heartbeat: clients answer it with `pong` (any frame shows a socket alive). A WebSocket-level ping as
    // well doubled what an idle socket costs (two writes and two reads per interval; 10,000 idle sockets).
    let tick = 0;
    const timer = setInterval(() => {
      const slot = tick++ % PING_SLOTS;
      const now = Date.now();
      const ping = JSON.stringify({ type: 'ping' } satisfies ServerFrame);
      const due: SocketState[] = [];
      for (const s of sockets) {
        if (s.slot !== slot) continue;
        if (!s.alive) {
          s.ws.terminate();
          continue;
        }
        s.alive = false;
        s.conn.send(ping);
        if (now - s.checkedAt > SESSION_RECHECK_MS) due.push(s);
      }
      if (due.length && !rechecking) void recheckSessions(due);
    }, REALTIME_TIMING.pingMs / PING_SLOTS);
    timer.unref();
    app.addHook('onReady', () => presence.start());
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await presence.stop().catch((err: unknown) => ctx.log.warn({ err }, 'realtime: leaving presence failed'));
    });

    /**
     * Sends what the socket missed after `cursor`, then `resync.done`. Live events keep coming while the missed
     * ones are read: they are held back and sent afterwards, less the messages the resync carried, so no message
     * goes out twice.
     */
    const resync = async (s: SocketState, cursor: number, holding = false) => {
      if (s.held && !holding) return;
      s.held ??= [];
      const replayed = new Set<string>();
      try {
        const result = await realtime.replay.since(s.conn.userId, cursor, REALTIME_TIMING.resyncMax);
        for (const event of result.events) {
          if (event.type === 'message.created') replayed.add(event.message.id);
          s.write(JSON.stringify({ type: 'event', event } satisfies ServerFrame));
        }
        const done: ServerFrame = { type: 'resync.done', cursor: result.cursor, truncated: result.truncated };
        s.write(JSON.stringify(done));
      } finally {
        const held = s.held;
        s.held = null;
        for (const frame of held) {
          const f = JSON.parse(frame.toString()) as ServerFrame;
          if (f.type === 'event' && f.event.type === 'message.created' && replayed.has(f.event.message.id)) continue;
          s.write(frame);
        }
      }
    };

    const handleFrame = async (s: SocketState, frame: ClientFrame) => {
      const { conn } = s;
      const send = (f: ServerFrame) => conn.send(JSON.stringify(f));
      switch (frame.op) {
        case 'pong':
          return;
        case 'resync':
          await resync(s, frame.cursor);
          return;
        case 'subscribe': {
          if (!(await realtime.authorizeTopic(conn.userId, frame.topic))) throw forbidden();
          hub.subscribe(conn, frame.topic);
          send({ type: 'subscribed', topic: frame.topic });
          return;
        }
        case 'unsubscribe':
          if (frame.topic !== userTopic(conn.userId)) hub.unsubscribe(conn, frame.topic);
          return;
        default: {
          const handler = realtime.opHandler(frame.op);
          if (!handler) throw new AppError(400, 'bad_request', 'This operation is not available.');
          // A feature's op may write (a message): refused while the disk is short of room, as HTTP writes are.
          await ctx.diskGuard.assertRoom();
          const answer = await handler({ userId: conn.userId, socketId: s.id }, frame as never);
          if (answer) send(answer);
        }
      }
    };

    const onMessage = (s: SocketState, data: WebSocket.RawData) => {
      s.alive = true;
      ctx.metrics.frameReceived();
      // A socket being closed (shutdown, or its session ended) handles no more frames.
      if (closing || s.ws.readyState !== s.ws.OPEN) return;
      const now = Date.now();
      s.tokens = Math.min(OPS_PER_SECOND * 2, s.tokens + ((now - s.refilledAt) / 1000) * OPS_PER_SECOND);
      s.refilledAt = now;
      let ref: string | undefined;
      try {
        if (s.tokens < 1) throw new AppError(429, 'rate_limited', 'Too many requests. Please try again later.');
        s.tokens -= 1;
        let json: unknown;
        try {
          json = JSON.parse(data.toString());
        } catch {
          throw new AppError(400, 'invalid_json', 'The request body is not valid JSON.');
        }
        // An error about a frame that carries a message names the message, so the client knows which failed.
        const maybe = json as { message?: { id?: unknown } } | null;
        if (typeof maybe?.message?.id === 'string') ref = maybe.message.id;
        const frame = parse(clientFrameSchema, json);
        const handled = handleFrame(s, frame)
          .catch((err: unknown) => {
            if (!knownError(err)) ctx.log.error({ err }, 'realtime: frame failed');
            s.conn.send(JSON.stringify(errorFrame(err, ref)));
          })
          .finally(() => inFlight.delete(handled));
        inFlight.add(handled);
      } catch (err) {
        s.conn.send(JSON.stringify(errorFrame(err, ref)));
      }
    };

    app.get(
      WS_PATH,
      {
        websocket: true,
        schema: {
          summary: 'The real-time WebSocket (docs/architecture.md "Real-time"): JSON frames both ways',
          description:
            'Upgrade with the session cookie from our own origin. `cursor`: the last message cursor seen; the ' +
            'server sends what was missed after it, then `resync.done`, then live frames (ServerFrame). Client ' +
            'frames: resync, subscribe, unsubscribe, typing, send, pong, visibility (ClientFrame). Close codes: ' +
            `4401 signed out, ${WS_CLOSE_QUOTA} too many sockets, ${WS_CLOSE_RESTART} service restart.`,
          tags: ['realtime'],
          querystring: wsQuerySchema,
          response: { 101: z.null().describe('Switching Protocols: the WebSocket is open'), ...errorResponses },
        },
        preValidation: async (request) => {
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
      },
      async (ws, request) => {
        const user = requireUser(request);
        if (!admitted.get(request.raw)) {
          const refusal = quotaExceeded({ what: MSG.quota.sockets, when: MSG.quota.closeTabs }, socketLimit);
          ws.send(JSON.stringify(errorFrame(refusal)));
          ws.close(WS_CLOSE_QUOTA, closeReason(refusal.message));
          return;
        }
        // An open socket leaves its address's connection count (CONNECTIONS_PER_IP); QUOTA_SOCKETS caps it.
        releaseWebSocket(request.raw.socket);
        // Frames written in one turn of the event loop (a batch's messages, the unread count, the ack) leave in
        // one system call: the socket is corked at the first and uncorked once the turn is over.
        const socket = (ws as unknown as { _socket?: Duplex })._socket;
        let corked = false;
        const write = (frame: string | Buffer) => {
          if (ws.readyState !== ws.OPEN) return;
          if (ws.bufferedAmount > MAX_BUFFERED_BYTES) {
            ws.terminate();
            return;
          }
          if (socket && !corked) {
            corked = true;
            socket.cork();
            setImmediate(() => {
              corked = false;
              socket.uncork();
            });
          }
          // Text frames always (an event's shared bytes come as a Buffer).
          ws.send(frame, { binary: false });
          ctx.metrics.frameSent();
        };
        const conn: Connection = {
          userId: user.id,
          sessionId: user.sessionId,
          send(frame) {
            if (state.held) state.held.push(frame);
            else write(frame);
          },
          // Its session ended (log-out, password reset, disable): closed at once, on whichever instance it is.
          close: () => ws.close(WS_CLOSE_SIGNED_OUT, 'unauthenticated'),
        };
        const now = Date.now();
        const state: SocketState = {
          ws,
          conn,
          alive: true,
          tokens: OPS_PER_SECOND * 2,
          refilledAt: now,
          checkedAt: now,
          slot: nextSlot++ % PING_SLOTS,
          token: request.cookies[SESSION_COOKIE] ?? '',
          held: null,
          id: randomUUID(),
          write,
        };
        // A reconnecting client names its last cursor in the address: the resync starts before any live event
        // can reach it, so nothing arrives twice.
        const since = parse(wsQuerySchema, request.query).cursor;
        if (since !== undefined) state.held = [];
        sockets.add(state);
        hub.add(conn);
        hub.subscribe(conn, userTopic(user.id));
        // What a frame leads to (its log lines, jobs it enqueues) carries the id of the socket's upgrade request.
        ws.on('message', (data) => withRequestId(request.id, () => onMessage(state, data)));
        request.log.debug('socket opened');
        ws.on('close', () => {
          sockets.delete(state);
          hub.remove(conn);
          realtime.socketClosed({ userId: user.id, socketId: state.id }).catch((err: unknown) => {
            ctx.log.warn({ err }, 'realtime: telling the features a socket closed failed');
          });
          request.log.debug('socket closed');
        });
        try {
          write(JSON.stringify({ type: 'hello', cursor: await realtime.replay.cursor() } satisfies ServerFrame));
          if (since !== undefined) await resync(state, since, true);
        } catch (err) {
          ctx.log.error({ err }, 'realtime: hello failed');
          ws.close(1011, 'unavailable');
        }
      },
    );

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
      if (cursor === undefined) return { events: [], cursor: await realtime.replay.cursor(), truncated: false };
      return realtime.replay.since(user.id, cursor, REALTIME_TIMING.resyncMax);
    });
  };
}
