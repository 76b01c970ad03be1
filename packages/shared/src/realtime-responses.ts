import { z } from 'zod';
import { chatMessageSchema, conversationRefOutSchema, lastMessageShape } from './chat-responses.ts';
import { roomStateSchema } from './study-sessions.ts';

/** The events of the real-time channel and the polling fallback's answer (schemas; types are inferred). */

/** Every event a client can receive. */
export const realtimeEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message.created'), message: chatMessageSchema }),
  /**
   * A message was edited or deleted for everyone (`message.deletedAt`): its new state, and the cursor of the change
   * (the next value of the message cursor sequence, so a resync from a cursor sends the changes made after it).
   */
  z.object({ type: z.literal('message.updated'), message: chatMessageSchema, cursor: z.number() }),
  /** A conversation's last message or someone's read position changed. */
  z.object({
    type: z.literal('chat.updated'),
    conversation: conversationRefOutSchema,
    last: z.object(lastMessageShape).optional(),
    read: z.object({ userId: z.string(), cursor: z.number() }).optional(),
  }),
  /** The viewer's unread count of one conversation, counted when the event was made. */
  z.object({
    type: z.literal('unread.changed'),
    conversation: conversationRefOutSchema,
    friendId: z.string().optional(),
    count: z.number(),
  }),
  z.object({ type: z.literal('friendRequest.changed'), requestId: z.string().optional() }),
  z.object({
    type: z.literal('group.changed'),
    groupId: z.string(),
    change: z.enum(['created', 'members', 'joined', 'left', 'deleted', 'invited']),
  }),
  z.object({ type: z.literal('profile.changed'), userId: z.string() }),
  z.object({ type: z.literal('document.changed'), documentId: z.string(), courseId: z.string().optional() }),
  z.object({ type: z.literal('typing'), conversation: conversationRefOutSchema, userId: z.string(), name: z.string() }),
  /** A study session was planned, changed, cancelled, ended or answered (issue 27): its screens load it again. */
  z.object({ type: z.literal('studySession.changed'), sessionId: z.string(), conversation: conversationRefOutSchema }),
  /** A study session's room as it is now: who is present, their goals, the timer. */
  z.object({ type: z.literal('studySession.room'), room: roomStateSchema }),
  /** The in-app reminder before a session starts (the same as its push notice). */
  z.object({ type: z.literal('studySession.reminder'), sessionId: z.string(), title: z.string(), body: z.string() }),
]);
export type RealtimeEvent = z.infer<typeof realtimeEventSchema>;

/** Answer of the polling fallback (GET /api/realtime/since?cursor=N), the same data a resync sends. */
export const sinceResultSchema = z.object({
  events: z.array(realtimeEventSchema),
  cursor: z.number(),
  truncated: z.boolean(),
});
export type SinceResult = z.infer<typeof sinceResultSchema>;
