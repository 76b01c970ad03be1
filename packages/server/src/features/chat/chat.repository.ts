import { and, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { chats } from '../../db/schema/chat.ts';
import type { AccessSql } from './conversation-access.ts';
import { unreadCountSql } from './read-state.repository.ts';

/** Queries of one-to-one chats as lists: the viewer's chats with current friends and their unread counts. */

export interface ChatRow {
  chatId: string;
  friendId: string;
  lastMessage: string;
  lastMessageTime: Date | null;
  lastMessageSender: string | null;
  unread: number;
}

const friendOf = (userId: string) =>
  sql<string>`case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end`;

/** The user's chats with current friends. */
const chatsWithFriends = (access: AccessSql, userId: string) =>
  and(or(eq(chats.userA, userId), eq(chats.userB, userId)), access.chatAllowed(sql`${userId}`, friendOf(userId)));

const unreadIn = (userId: string) =>
  unreadCountSql({ reader: sql`${userId}`, kind: sql`'chat'`, conversationId: sql`${chats.id}` });

/** Every chat of the user with a current friend, with the unread count of each (`unreadCountSql`). */
export async function chatsOf(db: Db, access: AccessSql, userId: string): Promise<ChatRow[]> {
  return db
    .select({
      chatId: chats.id,
      friendId: friendOf(userId),
      lastMessage: chats.lastMessage,
      lastMessageTime: chats.lastMessageTime,
      lastMessageSender: chats.lastMessageSender,
      unread: unreadIn(userId),
    })
    .from(chats)
    .where(chatsWithFriends(access, userId));
}

/** Per friend, the unread count of their chat (only friends with any). */
export async function unreadByFriend(db: Db, access: AccessSql, userId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ friendId: friendOf(userId), n: unreadIn(userId) })
    .from(chats)
    .where(chatsWithFriends(access, userId));
  return new Map(rows.flatMap((r) => (r.n > 0 ? [[r.friendId, r.n] as const] : [])));
}

export async function chatRow(db: Db, chatId: string) {
  const [row] = await db.select().from(chats).where(eq(chats.id, chatId)).limit(1);
  return row;
}
