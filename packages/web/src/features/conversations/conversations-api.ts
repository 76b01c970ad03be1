import type {
  AttachmentKind,
  AttachmentResult,
  ChatInfo,
  ChatList,
  ConversationRef,
  MessagePage,
  MessageResult,
  SendMessageInput,
  SendMessageResult,
  UnreadCounts,
} from '@studybuddy/shared/chat';
import { api, ApiRequestError } from '../../lib/api.ts';

/** Query keys of chats and messages (groups use the messages keys too). */
export const conversationKeys = {
  all: ['chat'] as const,
  unread: ['chat', 'unread'] as const,
  list: ['chat', 'list'] as const,
  infoAll: ['chat', 'info'] as const,
  info: (chatId: string) => ['chat', 'info', chatId] as const,
  messagesAll: ['chat', 'messages'] as const,
  messages: (ref: ConversationRef) => ['chat', 'messages', ref.kind, ref.id] as const,
  /** The history opened at a message (a search result): under `messages(ref)`, so it hears the same updates. */
  messagesAt: (ref: ConversationRef, cursor: number) => ['chat', 'messages', ref.kind, ref.id, 'at', cursor] as const,
};

/** Which page of a history to load: the newest, the one before or after a cursor, or the one around it. */
export interface HistoryParam {
  before?: number;
  after?: number;
  around?: number;
}

export const conversationBase = (ref: ConversationRef) =>
  `/api/${ref.kind === 'chat' ? 'chats' : 'groups'}/${encodeURIComponent(ref.id)}`;

export const conversationsApi = {
  unread: () => api<UnreadCounts>('/api/chats/unread'),
  list: () => api<ChatList>('/api/chats'),
  info: (chatId: string) => api<ChatInfo>(`/api/chats/${encodeURIComponent(chatId)}`),
  history: (ref: ConversationRef, page: HistoryParam = {}) => {
    const params = new URLSearchParams(
      Object.entries(page).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
    ).toString();
    return api<MessagePage>(`${conversationBase(ref)}/messages${params ? `?${params}` : ''}`);
  },
  /**
   * Sends over HTTP, for while the socket cannot open (the polling fallback): the same service as the socket's send
   * op, idempotent by the message id, limited by the same per-minute counter.
   */
  send: (ref: ConversationRef, message: SendMessageInput) =>
    api<SendMessageResult>(`${conversationBase(ref)}/messages`, { body: message }),
  /** Replaces the text of one's own text message (within the edit window). */
  edit: (ref: ConversationRef, messageId: string, content: string) =>
    api<MessageResult>(`${conversationBase(ref)}/messages/${encodeURIComponent(messageId)}`, {
      method: 'PATCH',
      body: { content },
    }),
  /** Deletes one's own message for everyone. */
  remove: (ref: ConversationRef, messageId: string) =>
    api<MessageResult>(`${conversationBase(ref)}/messages/${encodeURIComponent(messageId)}`, { method: 'DELETE' }),
  /** Adds (`reacted`) or takes back one's reaction with an emoji (issue 30). */
  react: (ref: ConversationRef, messageId: string, emoji: string, reacted: boolean) =>
    api<MessageResult>(`${conversationBase(ref)}/messages/${encodeURIComponent(messageId)}/reactions`, {
      body: { emoji, reacted },
    }),
  markRead: (ref: ConversationRef) =>
    api<{ lastRead: number; unread: number }>(`${conversationBase(ref)}/read`, { body: {} }),
  /** The file is the request body; the server decides by its bytes what it is. */
  async attach(ref: ConversationRef, kind: AttachmentKind, file: Blob): Promise<AttachmentResult> {
    let res: Response;
    try {
      res = await fetch(`${conversationBase(ref)}/attachments?kind=${kind}`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': file.type || 'application/octet-stream' },
        body: file,
      });
    } catch {
      throw new ApiRequestError(0, 'network', 'Network error. Please check your connection and try again.');
    }
    const data = (await res.json().catch(() => null)) as
      | (Partial<AttachmentResult> & { error?: { code: string; message: string } })
      | null;
    if (!res.ok) {
      throw new ApiRequestError(
        res.status,
        data?.error?.code ?? `http_${res.status}`,
        data?.error?.message ?? res.statusText,
      );
    }
    return { url: data?.url ?? '' };
  },
};
