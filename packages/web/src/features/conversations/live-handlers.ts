import type { ChatInfo, ChatList, LastMessage, UnreadCounts } from '@studybuddy/shared/chat';
import { messagePreview } from '@studybuddy/shared/chat';
import type { QueryClient } from '@tanstack/react-query';
import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { toast } from '../../ui/toast.ts';
import { conversationKeys } from './conversations-api.ts';
import { applyMessageUpdate, insertMessage } from './message-cache.ts';
import { outbox } from './outbox.ts';

const sum = (byFriend: Record<string, number>) => Object.values(byFriend).reduce((a, b) => a + b, 0);

/** The server's unread count of one chat, into the friends' counts and the chat list. */
export function applyChatUnread(client: QueryClient, chatId: string, friendId: string, count: number): void {
  client.setQueryData<UnreadCounts>(conversationKeys.unread, (d) => {
    if (!d) return d;
    const byFriend = { ...d.byFriend };
    if (count > 0) byFriend[friendId] = count;
    else delete byFriend[friendId];
    return { total: sum(byFriend), byFriend };
  });
  client.setQueryData<ChatList>(conversationKeys.list, (d) =>
    d ? { chats: d.chats.map((c) => (c.chatId === chatId ? { ...c, unread: count } : c)) } : d,
  );
}

/**
 * Messaging on the tab's real-time channel: new messages go into the loaded histories and the chat list, the
 * server's unread counts and read marks into the cache, and the outbox sends (again) whenever the connection
 * returns. Groups keep their own list current (groups/live-handlers.ts).
 */
export const conversationsLive: LiveHandlers = ({ client, me }) => {
  /** A chat's last message, into the chat list and the chat's pane. */
  const applyLast = (chatId: string, last: LastMessage) => {
    client.setQueryData<ChatList>(conversationKeys.list, (d) =>
      d ? { chats: d.chats.map((c) => (c.chatId === chatId ? { ...c, ...last } : c)) } : d,
    );
    client.setQueryData<ChatInfo>(conversationKeys.info(chatId), (d) => (d ? { ...d, ...last } : d));
  };
  const offs = [
    outbox.bind(me, {
      // As the server has it now (a message taken back while it was being sent comes back deleted).
      onSent: (message) => applyMessageUpdate(client, message),
      onFailed: (_entry, text) => toast.error(text),
    }),
    realtime.onStatus(() => {
      if (realtime.status === 'open') outbox.kickNow();
    }),

    realtime.on('message.created', ({ message }) => {
      insertMessage(client, message);
      outbox.ack(message.id);
      const ref = message.conversation;
      if (ref.kind !== 'chat') return;
      applyLast(ref.id, {
        // A resync brings a message as it is now: maybe deleted since.
        lastMessage: messagePreview(message),
        lastMessageTime: message.createdAt,
        lastMessageSender: message.senderId,
      });
    }),

    // Edited or deleted for everyone (by this student in another tab, or by the friend): every loaded history shows
    // it as it is now; an unsent copy in this tab's outbox has reached the server, so it is done.
    realtime.on('message.updated', ({ message }) => {
      applyMessageUpdate(client, message);
      outbox.ack(message.id);
    }),

    realtime.on('unread.changed', (e) => {
      if (e.conversation.kind === 'chat' && e.friendId) applyChatUnread(client, e.conversation.id, e.friendId, e.count);
    }),

    realtime.on('chat.updated', (e) => {
      // The chat's last message changed in place (edited or deleted).
      if (e.conversation.kind === 'chat' && e.last) applyLast(e.conversation.id, e.last);
      const read = e.read;
      if (e.conversation.kind !== 'chat' || !read || read.userId === me) return;
      client.setQueryData<ChatInfo>(conversationKeys.info(e.conversation.id), (d) =>
        d ? { ...d, friendLastRead: Math.max(d.friendLastRead, read.cursor) } : d,
      );
    }),

    realtime.onResync((full) => {
      void client.invalidateQueries({ queryKey: conversationKeys.unread });
      void client.invalidateQueries({ queryKey: conversationKeys.list });
      void client.invalidateQueries({ queryKey: conversationKeys.infoAll });
      if (full) void client.invalidateQueries({ queryKey: conversationKeys.messagesAll });
      // A resync the server asked for follows its bus reconnecting, i.e. its database back after an outage: what
      // was refused meanwhile (503) goes now rather than after the outbox's back-off, which by then is seconds.
      if (realtime.status === 'open') outbox.kickNow();
    }),
  ];
  if (realtime.status === 'open') outbox.kickNow();
  return () => offs.forEach((off) => off());
};
