import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import type { ChatInfo, ChatList, UnreadCounts } from '@studybuddy/shared/chat';
import { previewOf } from '@studybuddy/shared/chat';
import type { GroupList } from '@studybuddy/shared/groups';
import { realtime, useRealtimeConnection, useRealtimeEvent, useRealtimeStatus } from '../../lib/realtime.ts';
import { groupKeys } from '../groups/groups-api.ts';
import { conversationKeys } from './conversations-api.ts';
import { insertMessage, isOpen } from './message-cache.ts';
import { outbox } from './outbox.ts';

const sum = (byFriend: Record<string, number>) => Object.values(byFriend).reduce((a, b) => a + b, 0);

/**
 * The tab's real-time channel for messaging: opens it while the signed-in shell is shown, applies chat and
 * group events to the query cache, and sends the outbox (again) whenever the connection returns.
 */
export function useChatChannel(me: string | undefined): void {
  const client = useQueryClient();
  useRealtimeConnection(me);
  const status = useRealtimeStatus();

  useEffect(() => {
    if (!me) return;
    return outbox.bind(me, {
      onSent: (message) => insertMessage(client, message),
      onFailed: (_entry, text) => notifications.show({ color: 'red', message: text }),
    });
  }, [client, me]);

  useEffect(() => {
    if (status === 'open') outbox.kickNow();
  }, [status]);

  useRealtimeEvent('message.created', ({ message }) => {
    insertMessage(client, message);
    outbox.ack(message.id);
    const ref = message.conversation;
    const last = {
      lastMessage: previewOf(message.type, message.content),
      lastMessageTime: message.createdAt,
      lastMessageSender: message.senderId,
    };
    if (ref.kind === 'chat') {
      client.setQueryData<ChatList>(conversationKeys.list, (d) =>
        d ? { chats: d.chats.map((c) => (c.chatId === ref.id ? { ...c, ...last } : c)) } : d,
      );
      client.setQueryData<ChatInfo>(conversationKeys.info(ref.id), (d) => (d ? { ...d, ...last } : d));
      return;
    }
    const mine = message.senderId === me;
    client.setQueriesData<GroupList>({ queryKey: groupKeys.lists }, (d) =>
      d
        ? {
            groups: d.groups
              .map((g) =>
                g.id === ref.id ? { ...g, ...last, unread: mine || isOpen(ref) ? g.unread : g.unread + 1 } : g,
              )
              .sort((a, b) => (b.lastMessageTime ?? b.createdAt).localeCompare(a.lastMessageTime ?? a.createdAt)),
          }
        : d,
    );
  });

  useRealtimeEvent('unread.changed', (e) => {
    if (e.conversation.kind === 'chat' && e.friendId) {
      const friendId = e.friendId;
      client.setQueryData<UnreadCounts>(conversationKeys.unread, (d) => {
        if (!d) return d;
        const byFriend = { ...d.byFriend };
        if (e.count > 0) byFriend[friendId] = e.count;
        else delete byFriend[friendId];
        return { total: sum(byFriend), byFriend };
      });
      client.setQueryData<ChatList>(conversationKeys.list, (d) =>
        d ? { chats: d.chats.map((c) => (c.chatId === e.conversation.id ? { ...c, unread: e.count } : c)) } : d,
      );
    } else {
      client.setQueriesData<GroupList>({ queryKey: groupKeys.lists }, (d) =>
        d ? { groups: d.groups.map((g) => (g.id === e.conversation.id ? { ...g, unread: e.count } : g)) } : d,
      );
    }
  });

  useRealtimeEvent('chat.updated', (e) => {
    const read = e.read;
    if (e.conversation.kind !== 'chat' || !read || read.userId === me) return;
    client.setQueryData<ChatInfo>(conversationKeys.info(e.conversation.id), (d) =>
      d ? { ...d, friendLastRead: Math.max(d.friendLastRead, read.cursor) } : d,
    );
  });

  useRealtimeEvent('group.changed', (e) => {
    void client.invalidateQueries({ queryKey: groupKeys.lists });
    void client.invalidateQueries({ queryKey: groupKeys.detail(e.groupId) });
    if (e.change === 'left' || e.change === 'deleted') {
      client.removeQueries({ queryKey: conversationKeys.messages({ kind: 'group', id: e.groupId }) });
    }
  });

  useEffect(
    () =>
      realtime.onResync((full) => {
        void client.invalidateQueries({ queryKey: conversationKeys.unread });
        void client.invalidateQueries({ queryKey: conversationKeys.list });
        void client.invalidateQueries({ queryKey: ['chat', 'info'] });
        void client.invalidateQueries({ queryKey: groupKeys.all });
        if (full) void client.invalidateQueries({ queryKey: conversationKeys.messagesAll });
      }),
    [client],
  );
}
