import type { ChatInfo, ChatList, UnreadCounts } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import * as chatRepo from './chat.repository.ts';
import * as readState from './read-state.repository.ts';
import { profiles } from '../profile/profiles.service.ts';
import { accessSql, authorizeRead } from './conversation-access.ts';

/** One-to-one chats as the friends screen and the sidebar badge need them. */

export async function listChats(ctx: AppContext, userId: string): Promise<ChatList> {
  const rows = await chatRepo.chatsOf(ctx.db, accessSql(ctx), userId);
  return {
    chats: rows.map((r) => ({
      chatId: r.chatId,
      friendId: r.friendId,
      lastMessage: r.lastMessage,
      lastMessageTime: r.lastMessageTime?.toISOString() ?? null,
      lastMessageSender: r.lastMessageSender,
      unread: r.unread,
    })),
  };
}

/** Unread messages per friend and in total; counted from the messages after each last read one. */
export async function unreadCounts(ctx: AppContext, userId: string): Promise<UnreadCounts> {
  const byFriend = await chatRepo.unreadByFriend(ctx.db, accessSql(ctx), userId);
  let total = 0;
  for (const n of byFriend.values()) total += n;
  return { total, byFriend: Object.fromEntries(byFriend) };
}

export async function chatInfo(ctx: AppContext, userId: string, chatId: string): Promise<ChatInfo> {
  // A chat with a student the user blocked stays readable to them (issue 24).
  const access = await authorizeRead(ctx, userId, { kind: 'chat', id: chatId });
  const friendId = access.peerId!;
  const [row, cards, myLastRead, friendLastRead] = await Promise.all([
    chatRepo.chatRow(ctx.db, chatId),
    profiles.cards(ctx.db, [friendId]),
    readState.lastReadOf(ctx.db, userId, access.ref),
    readState.lastReadOf(ctx.db, friendId, access.ref),
  ]);
  const friend = cards.get(friendId);
  return {
    chatId,
    friend: {
      id: friendId,
      name: friend?.name || MSG.chat.anonymous,
      profilePicture: friend?.profilePicture ?? '',
    },
    lastMessage: row?.lastMessage ?? '',
    lastMessageTime: row?.lastMessageTime?.toISOString() ?? null,
    lastMessageSender: row?.lastMessageSender ?? null,
    myLastRead,
    friendLastRead,
  };
}
