import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { chats, messages, readState } from '../../db/schema/chat.ts';

/** SQL over the chat tables for one student's account: what their data download and their deletion need. */

export type SentRow = Pick<
  typeof messages.$inferSelect,
  'id' | 'cursor' | 'conversationKind' | 'conversationId' | 'type' | 'content' | 'createdAt'
>;

/**
 * Up to `limit` messages the student sent after `afterCursor`, oldest first (a page of the download); those they
 * deleted for everyone are gone.
 */
export async function sentMessagesAfter(
  db: Db,
  userId: string,
  afterCursor: number,
  limit: number,
): Promise<SentRow[]> {
  return db
    .select({
      id: messages.id,
      cursor: messages.cursor,
      conversationKind: messages.conversationKind,
      conversationId: messages.conversationId,
      type: messages.type,
      content: messages.content,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .where(and(eq(messages.senderId, userId), gt(messages.cursor, afterCursor), isNull(messages.deletedAt)))
    .orderBy(asc(messages.cursor))
    .limit(limit);
}

/** The ids of the student's one-to-one chats. */
export async function chatIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: chats.id })
    .from(chats)
    .where(or(eq(chats.userA, userId), eq(chats.userB, userId)));
  return rows.map((r) => r.id);
}

/** Deletes these one-to-one chats with their messages and both students' read positions. */
export async function deleteChats(db: Db, chatIds: string[]): Promise<void> {
  if (!chatIds.length) return;
  await db
    .delete(messages)
    .where(and(eq(messages.conversationKind, 'chat'), inArray(messages.conversationId, chatIds)));
  await db
    .delete(readState)
    .where(and(eq(readState.conversationKind, 'chat'), inArray(readState.conversationId, chatIds)));
  await db.delete(chats).where(inArray(chats.id, chatIds));
}

/**
 * The student's messages in groups as their account goes: pictures and voice messages are deleted (their files go
 * from storage), text messages stay under `name` (the stored sender name goes; the sender id is cleared by the
 * database with the account).
 */
export async function orphanGroupMessages(db: Db, userId: string, name: string): Promise<void> {
  const ofStudent = and(eq(messages.conversationKind, 'group'), eq(messages.senderId, userId));
  await db.delete(messages).where(and(ofStudent, sql`${messages.type} <> 'text'`));
  await db.update(messages).set({ senderName: name }).where(ofStudent);
}
