import { and, asc, desc, eq, gt, inArray, lt, max, or, sql } from 'drizzle-orm';
import type { ChatMessage, ConversationRef, MessageType } from '@studybuddy/shared/chat';
import type { Db } from '../../db/connect.ts';
import { chats, connections, groupMembers, groups, messages, profiles, readState } from '../../db/schema.ts';

/** Only this module touches the message tables of both conversation kinds. */

type MessageRow = typeof messages.$inferSelect;

export function toChatMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    cursor: row.cursor,
    conversation: { kind: row.conversationKind, id: row.conversationId },
    senderId: row.senderId,
    senderName: row.senderName,
    type: row.type,
    content: row.content,
    createdAt: row.createdAt.toISOString(),
  };
}

const inConversation = (ref: ConversationRef) =>
  and(eq(messages.conversationKind, ref.kind), eq(messages.conversationId, ref.id));

export async function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(connections)
    .where(and(eq(connections.userId, a), eq(connections.friendId, b)))
    .limit(1);
  return rows.length > 0;
}

export async function isGroupMember(db: Db, groupId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(groupMembers)
    .where(and(eq(groupMembers.groupId, groupId), eq(groupMembers.userId, userId)))
    .limit(1);
  return rows.length > 0;
}

export async function profileName(db: Db, userId: string): Promise<string> {
  const [row] = await db.select({ name: profiles.name }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return row?.name.trim() ?? '';
}

export async function findMessage(db: Db, id: string): Promise<MessageRow | undefined> {
  const [row] = await db.select().from(messages).where(eq(messages.id, id)).limit(1);
  return row;
}

export interface NewMessage {
  id: string;
  conversation: ConversationRef;
  senderId: string;
  senderName: string;
  type: MessageType;
  content: string;
}

/** A message row as raw SQL returns it (snake_case; int8 may come back as a string). */
interface RawMessage {
  id: string;
  cursor: string | number;
  conversation_kind: 'chat' | 'group';
  conversation_id: string;
  sender_id: string | null;
  sender_name: string;
  type: MessageType;
  content: string;
  created_at: string | Date;
  members: string[] | null;
  peer_unread: string | number | null;
}

/**
 * Stores a message and moves its conversation's last* fields in one statement (one round trip, atomic):
 * only when the sender may write there (friends / member) and the id is new. Returns the row and, for a
 * group, its member ids, for a chat the friend's unread count; undefined when nothing was written (id taken,
 * or not allowed).
 */
export async function insertMessageChecked(
  db: Db,
  m: NewMessage & { preview: string; peerId?: string },
): Promise<{ row: MessageRow; members: string[]; peerUnread: number } | undefined> {
  const { id, conversation: ref, senderId, type, content, preview } = m;
  const allowed =
    ref.kind === 'chat'
      ? sql`exists (select 1 from ${connections} where ${connections.userId} = ${senderId} and ${connections.friendId} = ${m.peerId ?? ''})`
      : sql`exists (select 1 from ${groupMembers} where ${groupMembers.groupId} = ${ref.id} and ${groupMembers.userId} = ${senderId})`;
  const [a, b] = [senderId, m.peerId ?? ''].sort();
  const last =
    ref.kind === 'chat'
      ? sql`, up as (
          insert into ${chats} (id, user_a, user_b, last_message, last_message_time, last_message_sender, last_message_cursor, last_updated)
          select conversation_id, ${a}, ${b}, ${preview}, created_at, sender_id, cursor, created_at from ins
          on conflict (id) do update set last_message = excluded.last_message, last_message_time = excluded.last_message_time,
            last_message_sender = excluded.last_message_sender, last_message_cursor = excluded.last_message_cursor,
            last_updated = excluded.last_updated
          where ${chats.lastMessageCursor} < excluded.last_message_cursor)`
      : sql`, up as (
          update ${groups} set last_message = ${preview}, last_message_time = ins.created_at, last_message_sender = ins.sender_id,
            last_message_cursor = ins.cursor, last_updated = ins.created_at
          from ins where ${groups.id} = ins.conversation_id and ${groups.lastMessageCursor} < ins.cursor)`;
  const members =
    ref.kind === 'group'
      ? sql`(select array_agg(${groupMembers.userId}) from ${groupMembers} where ${groupMembers.groupId} = ${ref.id})`
      : sql`null::text[]`;
  // The friend's unread count after this message: the statement's snapshot does not see the new row, hence + 1.
  const peerUnread =
    ref.kind === 'chat'
      ? sql`(select count(*) from ${messages} where ${messages.conversationKind} = 'chat'
          and ${messages.conversationId} = ${ref.id} and ${messages.senderId} is distinct from ${m.peerId ?? ''}
          and ${messages.cursor} > coalesce((select ${readState.lastReadCursor} from ${readState}
            where ${readState.userId} = ${m.peerId ?? ''} and ${readState.conversationKind} = 'chat'
            and ${readState.conversationId} = ${ref.id}), 0)) + 1`
      : sql`null::bigint`;
  const result = (await db.execute(sql`
    with ins as (
      insert into ${messages} (id, conversation_kind, conversation_id, sender_id, sender_name, type, content)
      select ${id}, ${ref.kind}, ${ref.id}, ${senderId},
        coalesce(nullif(trim((select ${profiles.name} from ${profiles} where ${profiles.userId} = ${senderId})), ''), ${m.senderName}),
        ${type}, ${content}
      where ${allowed}
      on conflict (id) do nothing
      returning *
    )${last}
    select ins.*, ${members} as members, ${peerUnread} as peer_unread from ins`)) as unknown as { rows: RawMessage[] };
  const raw = result.rows[0];
  if (!raw) return undefined;
  return {
    row: {
      id: raw.id,
      cursor: Number(raw.cursor),
      conversationKind: raw.conversation_kind,
      conversationId: raw.conversation_id,
      senderId: raw.sender_id,
      senderName: raw.sender_name,
      type: raw.type,
      content: raw.content,
      createdAt: new Date(raw.created_at),
    },
    members: raw.members ?? [],
    peerUnread: Number(raw.peer_unread ?? 0),
  };
}

/** A page of history, oldest first, before a cursor (the newest page without one). */
export async function messagePage(
  db: Db,
  ref: ConversationRef,
  before: number | undefined,
  limit: number,
): Promise<{ rows: MessageRow[]; hasMore: boolean }> {
  const rows = await db
    .select()
    .from(messages)
    .where(before === undefined ? inConversation(ref) : and(inConversation(ref), lt(messages.cursor, before)))
    .orderBy(desc(messages.cursor))
    .limit(limit + 1);
  const hasMore = rows.length > limit;
  return { rows: rows.slice(0, limit).reverse(), hasMore };
}

export async function newestCursorIn(db: Db, ref: ConversationRef): Promise<number> {
  const [row] = await db
    .select({ cursor: max(messages.cursor) })
    .from(messages)
    .where(inConversation(ref));
  return Number(row?.cursor ?? 0);
}

export async function newestCursor(db: Db): Promise<number> {
  const [row] = await db.select({ cursor: max(messages.cursor) }).from(messages);
  return Number(row?.cursor ?? 0);
}

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

/** Messages of others after the user's read position: derived from the messages, so it never drifts. */
export async function unreadCount(db: Db, userId: string, ref: ConversationRef): Promise<number> {
  const lastRead = db
    .select({ c: readState.lastReadCursor })
    .from(readState)
    .where(
      and(eq(readState.userId, userId), eq(readState.conversationKind, ref.kind), eq(readState.conversationId, ref.id)),
    );
  const [row] = await db
    .select({ n: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .where(
      and(
        inConversation(ref),
        gt(messages.cursor, sql`coalesce((${lastRead}), 0)`),
        sql`${messages.senderId} is distinct from ${userId}`,
      ),
    );
  return row?.n ?? 0;
}

/** How far back (in cursors) a resync looks for messages that committed out of order. */
export const RESYNC_LOOKBACK = 2000;

/**
 * Messages of the user's current conversations (chats with friends, groups they belong to) after `cursor`,
 * plus those created in the 10 s before the message at `cursor` (within RESYNC_LOOKBACK cursors): a message
 * whose transaction committed after a newer one was seen has a smaller cursor, so a resync looks a little
 * back. Clients keep messages by id, so the few they already hold change nothing. Without `lookBack` (PGlite:
 * one connection, transactions one after the other, so cursors commit in order) exactly those after `cursor`.
 */
export async function messagesSince(
  db: Db,
  userId: string,
  cursor: number,
  limit: number,
  lookBack: boolean,
): Promise<MessageRow[]> {
  const seenAt = sql`(select ${messages.createdAt} from ${messages} where ${messages.cursor} = ${cursor})`;
  const myChats = sql`select ${chats.id} from ${chats} join ${connections}
    on ${connections.userId} = ${userId}
    and ${connections.friendId} = case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end
    where ${chats.userA} = ${userId} or ${chats.userB} = ${userId}`;
  const myGroups = sql`select ${groupMembers.groupId} from ${groupMembers} where ${groupMembers.userId} = ${userId}`;
  return db
    .select()
    .from(messages)
    .where(
      and(
        or(
          and(eq(messages.conversationKind, 'chat'), sql`${messages.conversationId} in (${myChats})`),
          and(eq(messages.conversationKind, 'group'), sql`${messages.conversationId} in (${myGroups})`),
        ),
        lookBack
          ? and(
              gt(messages.cursor, cursor - RESYNC_LOOKBACK),
              or(gt(messages.cursor, cursor), sql`${messages.createdAt} >= ${seenAt} - interval '10 seconds'`),
            )
          : gt(messages.cursor, cursor),
      ),
    )
    .orderBy(asc(messages.cursor))
    .limit(limit);
}

/** Unread counts of several conversations of one kind (absent when zero). */
export async function unreadFor(
  db: Db,
  userId: string,
  kind: ConversationRef['kind'],
  ids: string[],
): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select({ id: messages.conversationId, n: sql<number>`count(*)`.mapWith(Number) })
    .from(messages)
    .leftJoin(
      readState,
      and(
        eq(readState.userId, userId),
        eq(readState.conversationKind, messages.conversationKind),
        eq(readState.conversationId, messages.conversationId),
      ),
    )
    .where(
      and(
        eq(messages.conversationKind, kind),
        inArray(messages.conversationId, ids),
        gt(messages.cursor, sql`coalesce(${readState.lastReadCursor}, 0)`),
        sql`${messages.senderId} is distinct from ${userId}`,
      ),
    )
    .groupBy(messages.conversationId);
  return new Map(rows.map((r) => [r.id, r.n]));
}

/** Removes a conversation's messages and read positions (a group whose last member left). */
export async function deleteConversation(db: Db, ref: ConversationRef): Promise<void> {
  await db.delete(messages).where(inConversation(ref));
  await db.delete(readState).where(and(eq(readState.conversationKind, ref.kind), eq(readState.conversationId, ref.id)));
}
