import { and, eq, sql } from 'drizzle-orm';
import type { ConversationRef } from '@studybuddy/shared/chat';
import type { Db } from '../../db/connect.ts';
import { chats, messages } from '../../db/schema/chat.ts';
import type { AccessSql } from './conversation-access.ts';
import type { MessageRow } from './conversation.repository.ts';

/**
 * SQL of a sender's changes to a stored message (issue 24): deleting it for everyone and editing its text. Each
 * change takes the next value of the message cursor sequence as the row's `change_cursor`, so a resync after a
 * cursor also carries the changes made after it.
 */

const nextCursor = sql`nextval(pg_get_serial_sequence('messages', 'cursor'))`;

/**
 * Deletes a message for everyone: its content goes (the search vector with it) and the row stays as the
 * "Message deleted" placeholder. Undefined when there is no such message or it was deleted already.
 */
export async function markDeleted(db: Db, id: string): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ content: '', deletedAt: sql`now()`, changeCursor: nextCursor, changedAt: sql`now()` })
    .where(and(eq(messages.id, id), sql`${messages.deletedAt} is null`))
    .returning();
  return row;
}

/**
 * Replaces the text of a text message sent less than `windowMinutes` ago (by the database's clock) and marks it
 * edited. Undefined when nothing was changed: no such text message, deleted, or too old.
 */
export async function editText(
  db: Db,
  id: string,
  content: string,
  windowMinutes: number,
): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ content, editedAt: sql`now()`, changeCursor: nextCursor, changedAt: sql`now()` })
    .where(
      and(
        eq(messages.id, id),
        eq(messages.type, 'text'),
        sql`${messages.deletedAt} is null`,
        sql`${messages.createdAt} > now() - make_interval(mins => ${windowMinutes})`,
      ),
    )
    .returning();
  return row;
}

/** True when no message of the conversation is newer than `cursor` (its lists show that message). */
export async function isNewest(db: Db, ref: ConversationRef, cursor: number): Promise<boolean> {
  const [row] = await db
    .select({ newer: sql<number>`1` })
    .from(messages)
    .where(
      and(
        eq(messages.conversationKind, ref.kind),
        eq(messages.conversationId, ref.id),
        sql`${messages.cursor} > ${cursor}`,
      ),
    )
    .limit(1);
  return !row;
}

/**
 * A changed message that is its conversation's last one: the conversation's last message text becomes `preview`
 * (a chat's own row; a group's through the groups feature's statement, which records a message as last unless a
 * newer one is).
 */
export async function recordLastPreview(db: Db, access: AccessSql, row: MessageRow, preview: string): Promise<void> {
  if (row.conversationKind === 'chat') {
    await db
      .update(chats)
      .set({ lastMessage: preview })
      .where(and(eq(chats.id, row.conversationId), eq(chats.lastMessageCursor, row.cursor)));
    return;
  }
  if (!access.group) return;
  const latest = sql`select ${row.conversationId}::text as conversation_id, ${row.cursor}::bigint as cursor,
    ${row.createdAt.toISOString()}::timestamptz as created_at, ${row.senderId}::text as sender_id,
    ${preview}::text as preview`;
  await db.execute(access.group.recordLast(latest));
}

/** A group's member ids (empty when it has none or no feature registered groups). */
export async function groupMemberIds(db: Db, access: AccessSql, groupId: string): Promise<string[]> {
  if (!access.group) return [];
  const result = await db.execute(sql`select ${access.group.memberIds(sql`${groupId}`)} as ids`);
  const [row] = (result as unknown as { rows: { ids: string[] | null }[] }).rows;
  return row?.ids ?? [];
}
