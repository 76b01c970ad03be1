import type { Socket } from 'node:net';
import type { FastifyRequest } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import type { ConnectionLimits } from '../connection-config.ts';
import { endConnection } from './connection-answers.ts';
import type { ConnectionGuardStats } from './connection-guard.ts';

interface BodyWatch {
  request: FastifyRequest;
  socket: Socket;
  /** When the client will have fallen behind (performance.now() milliseconds). */
  deadline: number;
  /** socket.bytesRead at the last look. */
  bytes: number;
  /** The request has its turn (its body is the handler's to read): pauses from then on are the server's. */
  ourTurn: boolean;
  /** Since when the socket is paused by the server while it is the request's turn, or null. */
  pausedAt: number | null;
  onPause: () => void;
  onResume: () => void;
}

/**
 * A client's connection, not light-my-request's stand-in (app.inject): that one has no stream state, and the body
 * of an injected request that nobody reads never ends, so counting it would never give its place back.
 */
export const isConnection = (socket: Socket | undefined): socket is Socket => typeof socket?.isPaused === 'function';

/**
 * The body rule: a request's body must keep arriving at `limits.bodyMinBytesPerSecond` after a first
 * `limits.bodyTimeoutMs` allowance, or its connection is answered 408 and closed. Time the server itself holds the
 * socket paused (its handler reading slowly) is not held against the client.
 */
export function createSlowBodyRule(limits: ConnectionLimits, stats: ConnectionGuardStats) {
  const watching = new Set<BodyWatch>();
  const watches = new WeakMap<object, BodyWatch>();
  const tickMs = Math.max(50, Math.min(1000, Math.floor(limits.bodyTimeoutMs / 4)));
  let ticker: NodeJS.Timeout | undefined;
  const msPerByte = 1000 / limits.bodyMinBytesPerSecond;

  const unwatch = (w: BodyWatch) => {
    watching.delete(w);
    w.socket.off('pause', w.onPause).off('resume', w.onResume);
    if (!watching.size && ticker) {
      clearInterval(ticker);
      ticker = undefined;
    }
  };

  const tick = () => {
    const now = performance.now();
    for (const w of watching) {
      if (w.request.raw.complete || w.socket.destroyed) {
        unwatch(w);
        continue;
      }
      const bytes = w.socket.bytesRead;
      w.deadline += (bytes - w.bytes) * msPerByte;
      w.bytes = bytes;
      if (w.pausedAt !== null) {
        w.deadline += now - w.pausedAt;
        w.pausedAt = now;
      }
      if (now <= w.deadline) continue;
      unwatch(w);
      stats.cutBody++;
      w.request.log.warn(
        { ip: w.request.ip, minBytesPerSecond: limits.bodyMinBytesPerSecond },
        'request body arriving too slowly: connection closed',
      );
      endConnection(w.socket, 408, 'request_timeout', MSG.connections.tooSlow);
    }
  };

  const watchBody = (request: FastifyRequest) => {
    const { headers } = request.raw;
    const hasBody = Number(headers['content-length'] ?? 0) > 0 || headers['transfer-encoding'] !== undefined;
    if (!hasBody || request.raw.complete) return;
    const socket = request.raw.socket;
    if (!isConnection(socket)) return;
    const w: BodyWatch = {
      request,
      socket,
      deadline: performance.now() + limits.bodyTimeoutMs,
      bytes: socket.bytesRead,
      ourTurn: false,
      pausedAt: null,
      onPause: () => {
        if (w.ourTurn) w.pausedAt ??= performance.now();
      },
      onResume: () => {
        if (w.pausedAt !== null) w.deadline += performance.now() - w.pausedAt;
        w.pausedAt = null;
      },
    };
    socket.on('pause', w.onPause).on('resume', w.onResume);
    watching.add(w);
    watches.set(request.raw, w);
    ticker ??= setInterval(tick, tickMs).unref();
  };

  return {
    /** Starts watching a request's body (none, or one already in: nothing to watch). */
    watch: watchBody,
    /** Past the request hooks (fair share, session): the body is the server's to read from here on. */
    ourTurn(request: FastifyRequest) {
      const w = watches.get(request.raw);
      if (w && watching.has(w)) {
        w.ourTurn = true;
        if (w.socket.isPaused()) w.pausedAt = performance.now();
      }
    },
    stop() {
      if (ticker) clearInterval(ticker);
      ticker = undefined;
      watching.clear();
    },
  };
}
