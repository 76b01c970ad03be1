import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ConversationRef } from '@studybuddy/shared/chat';
import type { Db } from '../../db/connect.ts';
import { messages, readState } from '../../db/schema/chat.ts';
import { blocking } from '../social/blocks.service.ts';

/** The read positions (read_state) and the one rule every unread count follows. */

/**
 * Requirements §2, §9: a badge shows the count, or 99+ above 99. A count therefore stops at 100: counting further
 * would read every unread message of a conversation nobody opens, on every message sent to it.
 */
export const UNREAD_COUNT_CAP = 100;

/** Where a conversation's unread count is asked: every part is an SQL expression (a parameter, a column). */
export interface UnreadOf {
  reader: SQL;
  kind: SQL;
  conversationId: SQL;
}

/** The reader's read position in the conversation (0 before they read anything). */
export const lastReadSql = ({ reader, kind, conversationId }: UnreadOf): SQL<number> =>
  sql<number>`coalesce((select ${readState.lastReadCursor} from ${readState} where ${readState.userId} = ${reader}
    and ${readState.conversationKind} = ${kind} and ${readState.conversationId} = ${conversationId}), 0)`;

/**
 * The unread rule, written once: messages of others after the reader's last read one, not deleted, and not from a
 * student the reader blocked (issue 24), counted up to UNREAD_COUNT_CAP. Derived from the messages, so it never
 * drifts; one index range of at most the cap's length per conversation.
 */
export function unreadCountSql(of: UnreadOf): SQL<number> {
  const { reader, kind, conversationId } = of;
  return sql<number>`(select count(*) from (select 1 from ${messages}
      where ${messages.conversationKind} = ${kind} and ${messages.conversationId} = ${conversationId}
        and ${messages.cursor} > ${lastReadSql(of)}
        and ${messages.senderId} is distinct from ${reader} and ${messages.deletedAt} is null
        and not ${blocking.sql.hasBlocked(reader, sql`${messages.senderId}`)}
      limit ${sql.raw(String(UNREAD_COUNT_CAP))}) unread)`.mapWith(Number);
}

const ofRef = (userId: string, ref: ConversationRef): UnreadOf => ({
  reader: sql`${userId}`,
  kind: sql`${ref.kind}`,
  conversationId: sql`${ref.id}`,
});

export async function lastReadOf(db: Db, userId: string, ref: ConversationRef): Promise<number> {
  const [row] = await db
    .select({ cursor: readState.lastReadCursor })
    .from(readState)
    .where(
      and(eq(readState.userId, userId), eq(readState.conversationKind, ref.kind), eq(readState.conversationId, ref.id)),
    )
    .limit(1);
  return row?.cursor ?? 0;
}

/** Moves the read position forward only; returns where it stands. */
export async function advanceLastRead(db: Db, userId: string, ref: ConversationRef, cursor: number): Promise<number> {
  const [row] = await db
    .insert(readState)
    .values({ userId, conversationKind: ref.kind, conversationId: ref.id, lastReadCursor: cursor })
    .onConflictDoUpdate({
      target: [readState.userId, readState.conversationKind, readState.conversationId],
      set: {
        lastReadCursor: sql`greatest(${readState.lastReadCursor}, excluded.last_read_cursor)`,
        lastReadAt: sql`now()`,
      },
    })
    .returning({ cursor: readState.lastReadCursor });
  return row?.cursor ?? cursor;
}

/** The user's unread count in one conversation (`unreadCountSql`). */
export async function unreadCount(db: Db, userId: string, ref: ConversationRef): Promise<number> {
  const result = await db.execute(sql`select ${unreadCountSql(ofRef(userId, ref))} as n`);
  return Number((result as unknown as { rows: { n: string | number }[] }).rows[0]?.n ?? 0);
}

/** Unread counts of several conversations of one kind (absent when zero), as `unreadCount` counts them. */
export async function unreadFor(
  db: Db,
  userId: string,
  kind: ConversationRef['kind'],
  ids: string[],
): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const n = unreadCountSql({ reader: sql`${userId}`, kind: sql`${kind}`, conversationId: sql`c.id` });
  const result = await db.execute(sql`select c.id, ${n} as n
    from unnest(array[${sql.join(
      [...new Set(ids)].map((id) => sql`${id}`),
      sql`, `,
    )}]::text[]) as c(id)`);
  const rows = (result as unknown as { rows: { id: string; n: string | number }[] }).rows;
  return new Map(rows.flatMap((r) => (Number(r.n) > 0 ? [[r.id, Number(r.n)] as const] : [])));
}

/** Of `userIds`, those whose read position in the conversation is before `cursor` (the message was unread to them). */
export async function readBefore(db: Db, ref: ConversationRef, userIds: string[], cursor: number): Promise<string[]> {
  if (!userIds.length) return [];
  const read = await db
    .select({ userId: readState.userId })
    .from(readState)
    .where(
      and(
        eq(readState.conversationKind, ref.kind),
        eq(readState.conversationId, ref.id),
        inArray(readState.userId, userIds),
        sql`${readState.lastReadCursor} >= ${cursor}`,
      ),
    );
  const caughtUp = new Set(read.map((r) => r.userId));
  return userIds.filter((id) => !caughtUp.has(id));
}

/** Removes a conversation's read positions (with its messages: a group whose last member left). */
export async function deleteReadState(db: Db, ref: ConversationRef): Promise<void> {
  await db.delete(readState).where(and(eq(readState.conversationKind, ref.kind), eq(readState.conversationId, ref.id)));
}
