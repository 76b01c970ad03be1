import type { GroupList } from '@studybuddy/shared/groups';
import { messagePreview } from '@studybuddy/shared/chat';
import { realtime, type LiveHandlers } from '../../lib/realtime.ts';
import { blockedIdsIn } from '../blocks/index.ts';
import { conversationKeys, isOpen } from '../conversations/index.ts';
import { groupKeys } from './groups-api.ts';

/** Groups on the tab's real-time channel: the lists' last message and unread counts, membership changes. */
export const groupsLive: LiveHandlers = ({ client, me }) => {
  const offs = [
    realtime.on('message.created', ({ message }) => {
      const ref = message.conversation;
      if (ref.kind !== 'group') return;
      const last = {
        lastMessage: messagePreview(message),
        lastMessageTime: message.createdAt,
        lastMessageSender: message.senderId,
      };
      const mine = message.senderId === me;
      // A student the reader blocked brings no unread count (the server counts the same way; issue 24).
      const fromBlocked = !!message.senderId && blockedIdsIn(client).has(message.senderId);
      // A group the list does not hold yet (just created or joined: its list is being fetched, and that answer may
      // have been read before this message was stored) is fetched again, so its row shows this message.
      const listed = client
        .getQueriesData<GroupList>({ queryKey: groupKeys.lists })
        .some(([, d]) => d?.groups.some((g) => g.id === ref.id));
      client.setQueriesData<GroupList>({ queryKey: groupKeys.lists }, (d) =>
        d
          ? {
              groups: d.groups
                .map((g) =>
                  g.id === ref.id
                    ? { ...g, ...last, unread: mine || fromBlocked || isOpen(ref) ? g.unread : g.unread + 1 }
                    : g,
                )
                .sort((a, b) => (b.lastMessageTime ?? b.createdAt).localeCompare(a.lastMessageTime ?? a.createdAt)),
            }
          : d,
      );
      if (!listed) void client.invalidateQueries({ queryKey: groupKeys.lists });
    }),

    // A group's last message changed in place (edited or deleted for everyone).
    realtime.on('chat.updated', (e) => {
      const last = e.last;
      if (e.conversation.kind !== 'group' || !last) return;
      client.setQueriesData<GroupList>({ queryKey: groupKeys.lists }, (d) =>
        d ? { groups: d.groups.map((g) => (g.id === e.conversation.id ? { ...g, ...last } : g)) } : d,
      );
    }),

    realtime.on('unread.changed', (e) => {
      if (e.conversation.kind !== 'group') return;
      client.setQueriesData<GroupList>({ queryKey: groupKeys.lists }, (d) =>
        d ? { groups: d.groups.map((g) => (g.id === e.conversation.id ? { ...g, unread: e.count } : g)) } : d,
      );
    }),

    realtime.on('group.changed', (e) => {
      void client.invalidateQueries({ queryKey: groupKeys.lists });
      void client.invalidateQueries({ queryKey: groupKeys.detail(e.groupId) });
      if (e.change === 'left' || e.change === 'deleted') {
        client.removeQueries({ queryKey: conversationKeys.messages({ kind: 'group', id: e.groupId }) });
      }
    }),

    realtime.onResync(() => void client.invalidateQueries({ queryKey: groupKeys.all })),
  ];
  return () => offs.forEach((off) => off());
};
