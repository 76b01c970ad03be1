import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { ChatMessage, ConversationRef, MessagePage } from '@studybuddy/shared/chat';
import { quoteExcerpt, type MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { conversationKeys } from './conversations-api.ts';

/** Infinite history: pages[0] is the newest page loaded, each page oldest first. */
export type History = InfiniteData<MessagePage, unknown>;

const sameRef = (a: ConversationRef, b: ConversationRef) => a.kind === b.kind && a.id === b.id;

/**
 * A history being fetched now may have been read on the server before this message was committed, and its answer
 * replaces what is held: `apply` runs again once that answer is in (else a message that arrived live while the
 * chat was loading stayed missing until a reload).
 */
function againAfterFetches(client: QueryClient, message: ChatMessage, apply: () => void): void {
  const queryKey = conversationKeys.messages(message.conversation);
  for (const query of client.getQueryCache().findAll({ queryKey, fetchStatus: 'fetching' })) {
    void query.promise?.then(apply, () => undefined);
  }
}

/**
 * Puts a message into its conversation's loaded histories once (by id), in cursor order: the newest one and any
 * opened at a message. A history whose newest messages are not loaded yet leaves it to the page that loads them.
 */
export function insertMessage(client: QueryClient, message: ChatMessage): void {
  againAfterFetches(client, message, () => insertMessage(client, message));
  client.setQueriesData<History>({ queryKey: conversationKeys.messages(message.conversation) }, (data) => {
    if (!data?.pages.length || data.pages[0]!.hasNewer) return data;
    if (data.pages.some((p) => p.messages.some((m) => m.id === message.id))) return data;
    const pages = data.pages.slice();
    let target = pages.findIndex((p) => !p.messages.length || p.messages[0]!.cursor <= message.cursor);
    if (target === -1) {
      // Older than everything loaded: it belongs to a page not loaded yet unless nothing older exists.
      if (pages.at(-1)!.hasMore) return data;
      target = pages.length - 1;
    }
    const page = pages[target]!;
    const messages = [...page.messages, message].sort((a, b) => a.cursor - b.cursor);
    pages[target] = { ...page, messages };
    return { ...data, pages };
  });
}

/**
 * Whether `next` is a later state of a message than `held` (a deletion is final; else the later change, by its
 * version: an edit or a reaction).
 */
export function isNewerState(held: ChatMessage, next: ChatMessage): boolean {
  if (held.deletedAt) return false;
  if (next.deletedAt) return true;
  if ((next.version ?? 0) !== (held.version ?? 0)) return (next.version ?? 0) > (held.version ?? 0);
  return (next.editedAt ?? '') > (held.editedAt ?? '');
}

/** What a reply shows of a message as it is now (the server's quote, made here for a message that changed live). */
export function quoteOf(message: ChatMessage): MessageQuote {
  if (message.deletedAt) return { id: message.id, cursor: message.cursor, deleted: true };
  return {
    id: message.id,
    cursor: message.cursor,
    senderId: message.senderId,
    senderName: message.senderId ? message.senderName : MSG.chat.deletedUser,
    type: message.type,
    excerpt: message.type === 'text' ? quoteExcerpt(message.content) : '',
  };
}

/**
 * A message edited, deleted for everyone or reacted to: its new state replaces the one in every loaded history (an
 * older state arriving late changes nothing); a history that does not hold it yet takes it like a new message. Replies
 * to it quote it as it is now (a deletion, final, even where the message itself is not loaded).
 */
export function applyMessageUpdate(client: QueryClient, message: ChatMessage): void {
  againAfterFetches(client, message, () => applyMessageUpdate(client, message));
  let held = false;
  const quote = quoteOf(message);
  client.setQueriesData<History>({ queryKey: conversationKeys.messages(message.conversation) }, (data) => {
    if (!data) return data;
    let changed = false;
    let holds = false;
    const pages = data.pages.map((page) => {
      if (!page.messages.some((m) => m.id === message.id)) return page;
      holds = true;
      return {
        ...page,
        messages: page.messages.map((m) => {
          if (m.id !== message.id || !isNewerState(m, message)) return m;
          changed = true;
          return message;
        }),
      };
    });
    held ||= holds;
    if (!changed && (holds || !message.deletedAt)) return data;
    return {
      ...data,
      pages: pages.map((page) =>
        page.messages.some((m) => m.replyTo?.id === message.id)
          ? {
              ...page,
              messages: page.messages.map((m) => (m.replyTo?.id === message.id ? { ...m, replyTo: quote } : m)),
            }
          : page,
      ),
    };
  });
  if (!held) insertMessage(client, message);
}

/** Conversations on screen now (their new messages are read at once, so they add no unread count). */
const open = new Map<string, number>();
const keyOf = (ref: ConversationRef) => `${ref.kind}:${ref.id}`;

export function markOpen(ref: ConversationRef): () => void {
  const key = keyOf(ref);
  open.set(key, (open.get(key) ?? 0) + 1);
  return () => {
    const n = (open.get(key) ?? 1) - 1;
    if (n > 0) open.set(key, n);
    else open.delete(key);
  };
}

export const isOpen = (ref: ConversationRef) => open.has(keyOf(ref)) && document.visibilityState === 'visible';

export { sameRef };
