import { z } from 'zod';
import type { ChatMessage } from './chat-responses.ts';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

/**
 * Contracts of one-to-one chats and of the messages every conversation (chat or group) holds (requirements §3, §4, §5).
 */

export const CHAT_LIMITS = {
  /** Longest text message, in characters. */
  textMaxChars: 4000,
  /** Requirements §9: chat images must be under 5 MB. */
  imageMaxBytes: LIMITS.chatImageBytes,
  /**
   * Voice messages are Opus in WebM or Ogg (~4 KB a second from the web app; older ones WAV at ~32 KB a second):
   * 10 MB holds five minutes of either.
   */
  voiceMaxBytes: 10 * 1024 * 1024,
  voiceMaxSeconds: 300,
  /** A text message can be edited for this long after it was sent (issue 24). */
  editWindowMinutes: 15,
  /** Messages per history page. */
  pageDefault: 30,
  pageMax: 100,
} as const;

export const CONVERSATION_KINDS = ['chat', 'group'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

export interface ConversationRef {
  kind: ConversationKind;
  id: string;
}

export const MESSAGE_TYPES = ['text', 'image', 'voice'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Requirements §3: a chat's id is the two user ids sorted and joined by an underscore. */
export function chatIdFor(a: string, b: string): string {
  return [a, b].sort().join('_');
}

/** The other participant of a chat id, or null when `me` is not one of its two users. */
export function peerOf(chatId: string, me: string): string | null {
  const parts = chatId.split('_');
  if (parts.length !== 2 || !parts[0] || !parts[1] || parts[0] === parts[1]) return null;
  if (chatIdFor(parts[0], parts[1]) !== chatId) return null;
  if (parts[0] === me) return parts[1];
  if (parts[1] === me) return parts[0];
  return null;
}

/** Storage folder of a conversation's images and voice messages (requirements §7: under the chat or group id). */
export function conversationFolder(conversation: ConversationRef): string {
  return `${conversation.kind === 'chat' ? 'chats' : 'groups'}/${conversation.id}`;
}

export const conversationRefSchema = z.object({
  kind: z.enum(CONVERSATION_KINDS),
  id: z.string().min(1).max(300),
});

/**
 * A message as the client sends it. `id` is chosen by the client (a UUID) and is the idempotency key: the
 * server stores it once whatever the retries. Image and voice messages carry the address of the attachment
 * uploaded first for the same id. A reply names the message it answers (`replyTo`).
 */
export const sendMessageSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(MESSAGE_TYPES),
    content: z.string({ error: MSG.chat.emptyMessage }),
    /** The message this one replies to (issue 30): one of the same conversation. */
    replyTo: z.string().min(1).max(300).optional(),
  })
  .superRefine((m, ctx) => {
    if (m.type === 'text') {
      if (!m.content.trim()) ctx.addIssue({ code: 'custom', path: ['content'], message: MSG.chat.emptyMessage });
      else if (m.content.length > CHAT_LIMITS.textMaxChars) {
        ctx.addIssue({ code: 'custom', path: ['content'], message: MSG.chat.tooLong });
      }
    } else if (!m.content || m.content.length > 500) {
      ctx.addIssue({ code: 'custom', path: ['content'], message: MSG.chat.badAttachment });
    }
  });
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

/** The new text of an edited message (text messages only, within CHAT_LIMITS.editWindowMinutes of sending). */
export const editMessageSchema = z.object({
  content: z
    .string({ error: MSG.chat.emptyMessage })
    .refine((c) => c.trim().length > 0, MSG.chat.emptyMessage)
    .refine((c) => c.length <= CHAT_LIMITS.textMaxChars, MSG.chat.tooLong),
});
export type EditMessageInput = z.infer<typeof editMessageSchema>;

/** Whether the sender may still edit a message sent at `createdAt` (the server decides; the app hides Edit after). */
export const withinEditWindow = (createdAt: string, now = Date.now()) =>
  now - Date.parse(createdAt) < CHAT_LIMITS.editWindowMinutes * 60_000;

export const historyQuerySchema = z
  .object({
    /** Only messages with a cursor below this one (older); the newest page when none of the three is given. */
    before: z.coerce.number().int().positive().optional(),
    /** Only messages with a cursor above this one (newer), oldest first: the page after a page opened `around`. */
    after: z.coerce.number().int().nonnegative().optional(),
    /** The page around this message cursor, the message included (a conversation opened at a found message). */
    around: z.coerce.number().int().positive().optional(),
    limit: z.coerce.number().int().min(1).max(CHAT_LIMITS.pageMax).default(CHAT_LIMITS.pageDefault),
  })
  .refine((q) => [q.before, q.after, q.around].filter((c) => c !== undefined).length <= 1, {
    message: MSG.chat.oneCursor,
    path: ['around'],
  });
export type HistoryQuery = z.infer<typeof historyQuerySchema>;

export const markReadSchema = z.object({
  /** Read up to this message cursor; up to the newest message when absent. */
  cursor: z.number().int().nonnegative().optional(),
});
export type MarkReadInput = z.infer<typeof markReadSchema>;

export const ATTACHMENT_KINDS = ['image', 'voice'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];

export type {
  AttachmentResult,
  ChatInfo,
  ChatList,
  ChatMessage,
  ChatSummary,
  LastMessage,
  MessagePage,
  MessageResult,
  PersonSummary,
  ReadResult,
  SendMessageResult,
  UnreadCounts,
} from './chat-responses.ts';

/** Requirements §2, §9: an unread badge shows the count, or 99+ above 99. */
export function unreadLabel(count: number): string {
  return count > LIMITS.unreadBadgeCap ? `${LIMITS.unreadBadgeCap}+` : String(count);
}

/** The text a conversation list shows for a message. */
export function previewOf(type: MessageType, content: string): string {
  if (type === 'image') return MSG.chat.lastImage;
  if (type === 'voice') return MSG.chat.lastVoice;
  return content.length > 200 ? `${content.slice(0, 200)}…` : content;
}

/** The text a conversation list shows for a message as it is now: "Message deleted" once it was deleted. */
export function messagePreview(message: Pick<ChatMessage, 'type' | 'content' | 'deletedAt'>): string {
  return message.deletedAt ? MSG.chat.messageDeleted : previewOf(message.type, message.content);
}
