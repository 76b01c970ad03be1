import { and, eq, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { chats, connections, messages, profiles, readState } from '../../db/schema.ts';

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
export async function chatsOf(db: Db, userId: string): Promise<ChatRow[]> {
  const friendId = sql<string>`case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end`;
  const unread = sql<number>`(select count(*) from ${messages}
      where ${messages.conversationKind} = 'chat' and ${messages.conversationId} = ${chats.id}
      and ${messages.cursor} > coalesce(${readState.lastReadCursor}, 0)
      and ${messages.senderId} is distinct from ${userId})`.mapWith(Number);
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
    .innerJoin(connections, and(eq(connections.userId, userId), eq(connections.friendId, friendId)))
    .leftJoin(
      readState,
      and(eq(readState.userId, userId), eq(readState.conversationKind, 'chat'), eq(readState.conversationId, chats.id)),
    )
    .where(or(eq(chats.userA, userId), eq(chats.userB, userId)));
}

/** Per friend, the count of their messages after the user's last read one (only friends with any). */
export async function unreadByFriend(db: Db, userId: string): Promise<Map<string, number>> {
  const friendId = sql<string>`case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end`;
  const rows = await db
    .select({ userA: chats.userA, userB: chats.userB, n: sql<number>`count(${messages.id})`.mapWith(Number) })
    .from(chats)
    .innerJoin(connections, and(eq(connections.userId, userId), eq(connections.friendId, friendId)))
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
      ),
    )
    .where(or(eq(chats.userA, userId), eq(chats.userB, userId)))
    .groupBy(chats.id);
  return new Map(rows.map((r) => [r.userA === userId ? r.userB : r.userA, r.n]));
}

export async function chatRow(db: Db, chatId: string) {
  const [row] = await db.select().from(chats).where(eq(chats.id, chatId)).limit(1);
  return row;
}

export async function personSummary(db: Db, userId: string) {
  const [row] = await db
    .select({ id: profiles.userId, name: profiles.name, profilePicture: profiles.profilePicture })
    .from(profiles)
    .where(eq(profiles.userId, userId))
    .limit(1);
  return row;
}
