import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type WebSocket from 'ws';
import type { Metrics } from '../metrics/metrics.ts';
import type { Connection } from './hub.ts';

/** A socket that cannot keep up with this much unsent data is dropped (it resyncs when it reconnects). */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
/** Client frames allowed per second (token bucket, burst twice that). */
export const OPS_PER_SECOND = 50;
/** Parts of the ping interval the sockets are spread over. */
export const PING_SLOTS = 20;

/** One open socket of the real-time routes: its connection in the hub, heartbeat, op budget and held frames. */
export interface SocketState {
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

/**
 * Writes text frames to `ws`. Frames written in one turn of the event loop (a batch's messages, the unread count,
 * the ack) leave in one system call: the socket is corked at the first and uncorked once the turn is over. A
 * socket with more than MAX_BUFFERED_BYTES unsent is dropped.
 */
export function socketWriter(ws: WebSocket, metrics: Metrics): (frame: string | Buffer) => void {
  const socket = (ws as unknown as { _socket?: Duplex })._socket;
  let corked = false;
  return (frame) => {
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
    metrics.frameSent();
  };
}

/** A newly opened socket's state; its connection sends through `write` unless a resync holds frames back. */
export function newSocketState(
  ws: WebSocket,
  user: { id: string; sessionId: string },
  token: string,
  slot: number,
  write: (frame: string | Buffer) => void,
  onSignedOut: () => void,
): SocketState {
  const now = Date.now();
  const state: SocketState = {
    ws,
    conn: {
      userId: user.id,
      sessionId: user.sessionId,
      send(frame) {
        if (state.held) state.held.push(frame);
        else write(frame);
      },
      // Its session ended (log-out, password reset, disable): closed at once, on whichever instance it is.
      close: onSignedOut,
    },
    alive: true,
    tokens: OPS_PER_SECOND * 2,
    refilledAt: now,
    checkedAt: now,
    slot: slot % PING_SLOTS,
    token,
    held: null,
    id: randomUUID(),
    write,
  };
  return state;
}
