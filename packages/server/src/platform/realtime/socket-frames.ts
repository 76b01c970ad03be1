import type WebSocket from 'ws';
import {
  clientFrameSchema,
  REALTIME_TIMING,
  userTopic,
  type ClientFrame,
  type ServerFrame,
} from '@studybuddy/shared/realtime';
import type { AppContext } from '../context.ts';
import { AppError, forbidden, knownError, parse } from '../errors.ts';
import { OPS_PER_SECOND, type SocketState } from './socket-state.ts';

/** The error frame answering a failed client frame (`ref`: the message it carried, if any). */
export function errorFrame(err: unknown, ref?: string): ServerFrame {
  const known = knownError(err);
  if (known) {
    const { statusCode: status, message, code, field } = known;
    return { type: 'error', ref, status, message, code, ...(field ? { field } : {}) };
  }
  return { type: 'error', ref, status: 500, message: 'Something went wrong on our side. Please try again.' };
}

/** A close reason may hold at most 123 bytes. */
export function closeReason(text: string): string {
  const bytes = Buffer.from(text);
  return bytes.length <= 123
    ? text
    : bytes
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '') + '...';
}

/** How the sockets' frames are handled: what the routes keep of them (frames in flight, whether closing). */
export interface FrameHandling {
  /** Frames being handled (a send being stored): they finish before the database closes. */
  inFlight: Set<Promise<void>>;
  /** A closing app handles no more frames. */
  closing(): boolean;
}

/**
 * Sends what the socket missed after `cursor`, then `resync.done`. Live events keep coming while the missed ones
 * are read: they are held back and sent afterwards, less the messages the resync carried, so no message goes out
 * twice. `holding`: the socket already holds its live frames (it opened with a cursor).
 */
export async function resync(ctx: AppContext, s: SocketState, cursor: number, holding = false): Promise<void> {
  if (s.held && !holding) return;
  s.held ??= [];
  const replayed = new Set<string>();
  try {
    const result = await ctx.realtime.replay.since(s.conn.userId, cursor, REALTIME_TIMING.resyncMax);
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
}

/** Answers one client frame: pong, resync, subscribe and unsubscribe here, every other op by its feature. */
async function handleFrame(ctx: AppContext, s: SocketState, frame: ClientFrame): Promise<void> {
  const { realtime } = ctx;
  const { conn } = s;
  const send = (f: ServerFrame) => conn.send(JSON.stringify(f));
  switch (frame.op) {
    case 'pong':
      return;
    case 'resync':
      await resync(ctx, s, frame.cursor);
      return;
    case 'subscribe': {
      if (!(await realtime.authorizeTopic(conn.userId, frame.topic))) throw forbidden();
      realtime.hub.subscribe(conn, frame.topic);
      send({ type: 'subscribed', topic: frame.topic });
      return;
    }
    case 'unsubscribe':
      if (frame.topic !== userTopic(conn.userId)) realtime.hub.unsubscribe(conn, frame.topic);
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
}

/**
 * A socket's incoming data: within its op budget (token bucket), valid JSON and a known frame, handled; each
 * failure answered with an error frame naming the message the frame carried.
 */
export function onMessage(ctx: AppContext, handling: FrameHandling, s: SocketState, data: WebSocket.RawData): void {
  s.alive = true;
  ctx.metrics.frameReceived();
  // A socket being closed (shutdown, or its session ended) handles no more frames.
  if (handling.closing() || s.ws.readyState !== s.ws.OPEN) return;
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
    const handled = handleFrame(ctx, s, frame)
      .catch((err: unknown) => {
        if (!knownError(err)) ctx.log.error({ err }, 'realtime: frame failed');
        s.conn.send(JSON.stringify(errorFrame(err, ref)));
      })
      .finally(() => handling.inFlight.delete(handled));
    handling.inFlight.add(handled);
  } catch (err) {
    s.conn.send(JSON.stringify(errorFrame(err, ref)));
  }
}
