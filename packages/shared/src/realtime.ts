import { z } from 'zod';
import { conversationRefSchema, sendMessageSchema, type ChatMessage, type ConversationRef } from './chat.ts';
import type { RealtimeEvent } from './realtime-responses.ts';

/**
 * The real-time channel (docs/architecture.md "Real-time"): one WebSocket per tab at /api/ws, authenticated by the
 * session cookie. The server publishes typed events to topics; every signed-in socket listens to its user's topic and
 * may subscribe to the topics of conversations it belongs to. A reconnecting client opens `/api/ws?cursor=N`
 * (its last seen message cursor): the server sends what was missed after N, then `resync.done`, and only then
 * anything live, so no message arrives twice.
 */

export const WS_PATH = '/api/ws';

/**
 * Close code of a socket refused because the student already has the most open sockets allowed (the reason
 * names the limit). Retrying soon cannot help: the client waits its longest back-off (and polls meanwhile).
 */
export const WS_CLOSE_QUOTA = 4429;

/**
 * Close code of every socket when the server shuts down or restarts (1012 "service restart"): the client reconnects
 * with back-off and jitter (to this instance once it is back, or another) and resyncs from its cursor.
 */
export const WS_CLOSE_RESTART = 1012;

/**
 * Close code of a socket whose session ended (log-out elsewhere, a password change or reset, a disabled account):
 * the client asks for its session again at once, and the app leaves for the log-in page.
 */
export const WS_CLOSE_SIGNED_OUT = 4401;

export const userTopic = (userId: string) => `user:${userId}`;
export const conversationTopic = (c: ConversationRef) => `conversation:${c.kind}:${c.id}`;

export type { RealtimeEvent, SinceResult } from './realtime-responses.ts';

export type RealtimeEventType = RealtimeEvent['type'];

/** What the server writes on the socket. */
export type ServerFrame =
  /** First frame: the newest message cursor when the socket opened. */
  | { type: 'hello'; cursor: number }
  | { type: 'event'; event: RealtimeEvent }
  /** End of a resync: everything up to `cursor` was sent; `truncated` when too much was missed (refetch all). */
  | { type: 'resync.done'; cursor: number; truncated: boolean }
  /** The server may have missed events (its bus reconnected): resync now. */
  | { type: 'resync.required' }
  | { type: 'subscribed'; topic: string }
  | { type: 'ack'; ref: string; message: ChatMessage; created: boolean }
  /** A refused frame: `ref` names the message of a `send`; `code` and `field` as an HTTP error body has them. */
  | { type: 'error'; ref?: string; status: number; message: string; code?: string; field?: string }
  | { type: 'ping' };

/** What a client may write on the socket. */
export const clientFrameSchema = z.discriminatedUnion('op', [
  /** Send every missed message with a cursor above `cursor`, then `resync.done`. */
  z.object({ op: z.literal('resync'), cursor: z.number().int().nonnegative() }),
  z.object({ op: z.literal('subscribe'), topic: z.string().min(1).max(400) }),
  z.object({ op: z.literal('unsubscribe'), topic: z.string().min(1).max(400) }),
  z.object({ op: z.literal('typing'), conversation: conversationRefSchema }),
  /** Send a message over the socket; answered by `ack` (after commit) or `error`, with `ref` = the message id. */
  z.object({ op: z.literal('send'), conversation: conversationRefSchema, message: sendMessageSchema }),
  z.object({ op: z.literal('pong') }),
  /** Whether this tab is visible (sent when the socket opens and on every change): no push while one is. */
  z.object({ op: z.literal('visibility'), visible: z.boolean() }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

export const REALTIME_TIMING = {
  /** Server ping interval; a client that hears nothing for 2.5 intervals reconnects. */
  pingMs: 20_000,
  /** Reconnect back-off: 0.5 s doubling up to 30 s, with jitter. */
  backoffStartMs: 500,
  backoffMaxMs: 30_000,
  /** Typing indicator: sent at most every 2 s, shown for 4 s after the last one. */
  typingThrottleMs: 2_000,
  typingShowMs: 4_000,
  /** Messages a resync sends at most before answering `truncated`. */
  resyncMax: 500,
} as const;
