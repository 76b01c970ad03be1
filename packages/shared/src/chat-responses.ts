import { z } from 'zod';
import { CONVERSATION_KINDS, MESSAGE_TYPES } from './chat.ts';
import { messageQuoteSchema, messageReactionSchema } from './message-extras.ts';

/** What the chat API answers (each route's response schema; the web's types are inferred from them). */

export const conversationRefOutSchema = z.object({ kind: z.enum(CONVERSATION_KINDS), id: z.string() });

export const chatMessageSchema = z.object({
  id: z.string(),
  /** Position in the one global, increasing sequence of messages (the resync cursor). */
  cursor: z.number(),
  conversation: conversationRefOutSchema,
  /** Null when the sender's account was deleted. */
  senderId: z.string().nullable(),
  senderName: z.string(),
  type: z.enum(MESSAGE_TYPES),
  /** The text, or the address of the image or voice file. */
  content: z.string(),
  /** ISO 8601, server time. */
  createdAt: z.string(),
  /** When the sender last edited the text (ISO 8601); absent when never edited. */
  editedAt: z.string().optional(),
  /** When the message was deleted for everyone (ISO 8601): its content is then empty. Absent otherwise. */
  deletedAt: z.string().optional(),
  /** The message this one replies to, as it is now (issue 30). */
  replyTo: messageQuoteSchema.optional(),
  /** Reactions by emoji, in the order first used; absent when none (issue 30). */
  reactions: z.array(messageReactionSchema).optional(),
  /**
   * The cursor of the message's last change (an edit, a deletion or a reaction): of two states of one message, the
   * one with the higher version is the later. Absent when never changed.
   */
  version: z.number().optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const messagePageSchema = z.object({
  /** Oldest first. */
  messages: z.array(chatMessageSchema),
  /** True when older messages exist before the first one. */
  hasMore: z.boolean(),
  /** True when newer messages exist after the last one (a page opened `before` or `around` a cursor). */
  hasNewer: z.boolean().optional(),
});
export type MessagePage = z.infer<typeof messagePageSchema>;

export const sendMessageResultSchema = z.object({
  message: chatMessageSchema,
  /** False when the id was already stored (a retry): nothing new was written. */
  created: z.boolean(),
});
export type SendMessageResult = z.infer<typeof sendMessageResultSchema>;

/** A message after its sender edited or deleted it. */
export const messageResultSchema = z.object({ message: chatMessageSchema });
export type MessageResult = z.infer<typeof messageResultSchema>;

export const lastMessageShape = {
  lastMessage: z.string(),
  lastMessageTime: z.string().nullable(),
  lastMessageSender: z.string().nullable(),
};
export type LastMessage = z.infer<z.ZodObject<typeof lastMessageShape>>;

export const personSummarySchema = z.object({ id: z.string(), name: z.string(), profilePicture: z.string() });
export type PersonSummary = z.infer<typeof personSummarySchema>;

/** One-to-one chat as its pane needs it. */
export const chatInfoSchema = z.object({
  ...lastMessageShape,
  chatId: z.string(),
  friend: personSummarySchema,
  /** Cursor of the last message each side has read (0 when none). */
  myLastRead: z.number(),
  friendLastRead: z.number(),
});
export type ChatInfo = z.infer<typeof chatInfoSchema>;

export const chatSummarySchema = z.object({
  ...lastMessageShape,
  chatId: z.string(),
  friendId: z.string(),
  unread: z.number(),
});
export type ChatSummary = z.infer<typeof chatSummarySchema>;

export const chatListSchema = z.object({ chats: z.array(chatSummarySchema) });
export type ChatList = z.infer<typeof chatListSchema>;

export const unreadCountsSchema = z.object({
  /** Unread messages of all current friends together (the sidebar Friends badge). */
  total: z.number(),
  /** Unread messages per friend id; friends without unread messages are absent. */
  byFriend: z.record(z.string(), z.number()),
});
export type UnreadCounts = z.infer<typeof unreadCountsSchema>;

export const readResultSchema = z.object({
  lastRead: z.number(),
  /** Messages of others still unread after it. */
  unread: z.number(),
});
export type ReadResult = z.infer<typeof readResultSchema>;

export const attachmentResultSchema = z.object({
  /** Address of the stored file (`/api/files/chats/<chatId>/…`): send it as the message content. */
  url: z.string(),
});
export type AttachmentResult = z.infer<typeof attachmentResultSchema>;
