import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ChatMessage } from '@studybuddy/shared/chat';
import { quoteExcerpt, type MessageQuote, type MessageReaction } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { messageReactions, messages } from '../../db/schema/chat.ts';
import { profiles } from '../profile/profiles.service.ts';
import { toChatMessage, type MessageRow } from './conversation.repository.ts';

/**
 * SQL of replies and reactions (issue 30): the quotes of the messages replies answer, and the reactions to messages.
 * A change of a message's reactions takes the next value of the message cursor sequence as its `change_cursor`,
 * like an edit, so a resync after a cursor carries it too.
 */

const nextCursor = sql`nextval(pg_get_serial_sequence('messages', 'cursor'))`;

/** What replies show of these messages as they are now, by id; a deleted one says only that (so does one gone). */
export async function quotesOf(db: Db, ids: string[]): Promise<Map<string, MessageQuote>> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) return new Map();
  const rows = await db
    .select({
      id: messages.id,
      cursor: messages.cursor,
      senderId: messages.senderId,
      senderName: messages.senderName,
      type: messages.type,
      content: messages.content,
      deletedAt: messages.deletedAt,
    })
    .from(messages)
    .where(inArray(messages.id, wanted));
  const found = new Map(rows.map((r) => [r.id, r]));
  return new Map(
    wanted.map((id): [string, MessageQuote] => {
      const r = found.get(id);
      if (!r || r.deletedAt) return [id, r ? { id, cursor: r.cursor, deleted: true } : { id, deleted: true }];
      return [
        id,
        {
          id,
          cursor: r.cursor,
          senderId: r.senderId,
          senderName: r.senderId ? r.senderName : MSG.chat.deletedUser,
          type: r.type,
          excerpt: r.type === 'text' ? quoteExcerpt(r.content) : '',
        },
      ];
    }),
  );
}

/** The reactions to these messages by message id (absent when none): per emoji in the order first used, who. */
export async function reactionsOf(db: Db, messageIds: string[]): Promise<Map<string, MessageReaction[]>> {
  if (!messageIds.length) return new Map();
  const rows = await db
    .select({
      messageId: messageReactions.messageId,
      emoji: messageReactions.emoji,
      userId: messageReactions.userId,
      name: profiles.sql.name(sql`${messageReactions.userId}`),
    })
    .from(messageReactions)
    .where(inArray(messageReactions.messageId, [...new Set(messageIds)]))
    .orderBy(asc(messageReactions.createdAt), asc(messageReactions.userId));
  const byMessage = new Map<string, MessageReaction[]>();
  for (const r of rows) {
    let list = byMessage.get(r.messageId);
    if (!list) byMessage.set(r.messageId, (list = []));
    let entry = list.find((e) => e.emoji === r.emoji);
    if (!entry) list.push((entry = { emoji: r.emoji, users: [] }));
    entry.users.push({ id: r.userId, name: r.name?.trim() || MSG.chat.anonymous });
  }
  return byMessage;
}

/**
 * Messages as the API answers them: with the quote of the message each reply answers and their reactions (two
 * queries at most, whatever the number of messages; none when there is nothing to look up).
 */
export async function toChatMessages(db: Db, rows: MessageRow[]): Promise<ChatMessage[]> {
  const replyIds = rows.flatMap((r) => (r.replyToId ? [r.replyToId] : []));
  const live = rows.filter((r) => !r.deletedAt).map((r) => r.id);
  const [quotes, reactions] = await Promise.all([quotesOf(db, replyIds), reactionsOf(db, live)]);
  return rows.map((row) => {
    const message = toChatMessage(row);
    const quote = row.replyToId ? quotes.get(row.replyToId) : undefined;
    const list = row.deletedAt ? undefined : reactions.get(row.id);
    return { ...message, ...(quote ? { replyTo: quote } : {}), ...(list?.length ? { reactions: list } : {}) };
  });
}

/** One message as the API answers it (`toChatMessages`). */
export async function toFullMessage(db: Db, row: MessageRow): Promise<ChatMessage> {
  const [message] = await toChatMessages(db, [row]);
  return message!;
}

/**
 * Takes the next change cursor for a message not deleted, locking its row until the transaction ends (a deletion
 * and every reaction to it wait for each other); undefined when there is no such message or it was deleted.
 */
export async function lockForReaction(db: Db, id: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ changeCursor: nextCursor, changedAt: sql`now()` })
    .where(and(eq(messages.id, id), sql`${messages.deletedAt} is null`))
    .returning();
  return row;
}

/** Adds the student's reaction with this emoji (once) or takes it back. */
export async function setReaction(
  db: Db,
  messageId: string,
  userId: string,
  emoji: string,
  reacted: boolean,
): Promise<void> {
  if (reacted) {
    await db.insert(messageReactions).values({ messageId, userId, emoji }).onConflictDoNothing();
    return;
  }
  await db
    .delete(messageReactions)
    .where(
      and(
        eq(messageReactions.messageId, messageId),
        eq(messageReactions.userId, userId),
        eq(messageReactions.emoji, emoji),
      ),
    );
}

/** A message deleted for everyone takes its reactions with it. */
export async function deleteReactionsOf(db: Db, messageId: string): Promise<void> {
  await db.delete(messageReactions).where(eq(messageReactions.messageId, messageId));
}

/** Every reaction of a student, oldest first, with its message's conversation (their data download). */
export async function reactionsByUser(db: Db, userId: string) {
  return db
    .select({
      messageId: messageReactions.messageId,
      emoji: messageReactions.emoji,
      createdAt: messageReactions.createdAt,
      conversationKind: messages.conversationKind,
      conversationId: messages.conversationId,
    })
    .from(messageReactions)
    .innerJoin(messages, eq(messages.id, messageReactions.messageId))
    .where(eq(messageReactions.userId, userId))
    .orderBy(asc(messageReactions.createdAt), asc(messageReactions.messageId));
}

/** A student's reactions go with their account. */
export async function deleteReactionsBy(db: Db, userId: string): Promise<void> {
  await db.delete(messageReactions).where(eq(messageReactions.userId, userId));
}
