import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { chats, messages, readState } from '../../db/schema/chat.ts';
import type { AccessSql } from './conversation-access.ts';

/** Queries of one-to-one chats as lists: the viewer's chats with current friends and their unread counts. */

export interface ChatRow {
  chatId: string;
  friendId: string;
  lastMessage: string;
  lastMessageTime: Date | null;
  lastMessageSender: string | null;
  unread: number;
}

/** Every chat of the user with a current friend, with the messages of the friend after the user's last read. */
export async function chatsOf(db: Db, access: AccessSql, userId: string): Promise<ChatRow[]> {
  const friendId = sql<string>`case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end`;
  const unread = sql<number>`(select count(*) from ${messages}
      where ${messages.conversationKind} = 'chat' and ${messages.conversationId} = ${chats.id}
      and ${messages.cursor} > coalesce(${readState.lastReadCursor}, 0)
      and ${messages.senderId} is distinct from ${userId} and ${messages.deletedAt} is null)`.mapWith(Number);
  return db
    .select({
      chatId: chats.id,
      friendId,
      lastMessage: chats.lastMessage,
      lastMessageTime: chats.lastMessageTime,
      lastMessageSender: chats.lastMessageSender,
      unread,
    })
    .from(chats)
    .leftJoin(
      readState,
      and(eq(readState.userId, userId), eq(readState.conversationKind, 'chat'), eq(readState.conversationId, chats.id)),
    )
    .where(and(or(eq(chats.userA, userId), eq(chats.userB, userId)), access.chatAllowed(sql`${userId}`, friendId)));
}

/** Per friend, the count of their messages after the user's last read one (only friends with any). */
export async function unreadByFriend(db: Db, access: AccessSql, userId: string): Promise<Map<string, number>> {
  const friendId = sql<string>`case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end`;
  const rows = await db
    .select({ userA: chats.userA, userB: chats.userB, n: sql<number>`count(${messages.id})`.mapWith(Number) })
    .from(chats)
    .leftJoin(
      readState,
      and(eq(readState.userId, userId), eq(readState.conversationKind, 'chat'), eq(readState.conversationId, chats.id)),
    )
    .innerJoin(
      messages,
      and(
        eq(messages.conversationKind, 'chat'),
        eq(messages.conversationId, chats.id),
        gt(messages.cursor, sql`coalesce(${readState.lastReadCursor}, 0)`),
        sql`${messages.senderId} is distinct from ${userId}`,
        isNull(messages.deletedAt),
      ),
    )
    .where(and(or(eq(chats.userA, userId), eq(chats.userB, userId)), access.chatAllowed(sql`${userId}`, friendId)))
    .groupBy(chats.id);
  return new Map(rows.map((r) => [r.userA === userId ? r.userB : r.userA, r.n]));
}

export async function chatRow(db: Db, chatId: string) {
  const [row] = await db.select().from(chats).where(eq(chats.id, chatId)).limit(1);
  return row;
}
