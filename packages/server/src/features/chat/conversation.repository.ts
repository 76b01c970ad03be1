import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, lte, max, or, sql, type SQL } from 'drizzle-orm';
import type { ChatMessage, ConversationRef, MessageType } from '@studybuddy/shared/chat';
import type { Db } from '../../db/connect.ts';
import { chats, messages } from '../../db/schema/chat.ts';
import { preparedStatement, runPrepared, type PreparedStatement } from '../../db/prepared.ts';
import { sqlText } from '../../db/sql-text.ts';
import { profiles } from '../profile/profiles.service.ts';
import { blocking } from '../social/blocks.service.ts';
import type { AccessSql } from './conversation-access.ts';
import { deleteReadState, unreadCountSql } from './read-state.repository.ts';

/** Only this module touches the message tables of both conversation kinds. */

export type MessageRow = typeof messages.$inferSelect;

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
    ...(row.editedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    ...(row.deletedAt ? { deletedAt: row.deletedAt.toISOString() } : {}),
    ...(row.changeCursor !== null ? { version: row.changeCursor } : {}),
  };
}

const inConversation = (ref: ConversationRef) =>
  and(eq(messages.conversationKind, ref.kind), eq(messages.conversationId, ref.id));

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
  /** The message this one replies to (issue 30), checked by the caller to be of the same conversation. */
  replyToId?: string;
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
  reply_to_id: string | null;
  members: string[] | null;
  blockers: string[] | null;
  peer_unread_before: string | number | null;
}

export interface MessageToWrite extends NewMessage {
  /** The conversation's lastMessage text after this message. */
  preview: string;
  /** The friend, in a one-to-one chat. */
  peerId?: string;
}

export interface WrittenMessage {
  row: MessageRow;
  /** A group's member ids (empty for a chat). */
  members: string[];
  /** In a group, everyone who blocked the sender (issue 24): the message is announced to none of them. */
  blockers: string[];
  /**
   * In a chat, the friend's unread count before this batch: add the batch's messages to the friend to get the
   * count after it.
   */
  peerUnreadBefore: number;
}

/** The batch write as prepared once. */
export type WriteBatchStatement = PreparedStatement;

/**
 * The batch write, one statement (atomic, one round trip) over a JSON array of messages ($1). Every lookup is a
 * per-row index probe (scalar subqueries, which the planner cannot turn into hashes over whole tables), so the
 * one plan prepared for it suits any batch size. Chats and groups are updated in id order, so two batches never
 * wait for each other in a circle. The statement's snapshot does not see the batch's own rows, hence
 * `peer_unread_before`. Who may write (friends, members), the sender's name and a group's members and last
 * message are their owners' SQL (`access`, the profile), inlined once here. The owners' checks are EXISTS
 * tests, hence `(select …)` around them: bare, the planner sized them for the 50 rows it assumes a JSON array
 * holds and hashed the whole friendships table once per batch (a sequential scan per batch of one message: 1.6
 * instead of 0.4 ms with 5,000 friendships, and more as they grow).
 */
export function writeBatchStatement(access: AccessSql): WriteBatchStatement {
  const col = (name: string) => sql.raw(name);
  const senderName = sqlText(profiles.sql.name(col('i.sender')));
  const chatAllowed = sqlText(access.chatAllowed(col('i.sender'), col('i.peer')));
  const g = access.group;
  const groupAllowed = g ? sqlText(g.isMember(col('i.conv'), col('i.sender'))) : 'false';
  const groupMembers = g ? sqlText(g.memberIds(col('ins.conversation_id'))) : 'null::text[]';
  const senderBlockers = sqlText(blocking.sql.blockersOf(col('ins.sender_id')));
  const latestGroups = col(`select * from latest where conversation_kind = 'group' order by conversation_id`);
  const recordGroups = g ? sqlText(g.recordLast(latestGroups)) : 'select 1';
  const peerUnread = sqlText(
    unreadCountSql({ reader: col('i.peer'), kind: col(`'chat'`), conversationId: col('ins.conversation_id') }),
  );
  const text = `
  with input as (
    select * from json_to_recordset($1::json) as x(ord int, id text, kind text, conv text, sender text,
      sender_name text, peer text, user_a text, user_b text, type text, content text, preview text, reply_to text)
  ),
  ins as (
    insert into messages (id, conversation_kind, conversation_id, sender_id, sender_name, type, content, reply_to_id)
    select i.id, i.kind, i.conv, i.sender, coalesce(nullif(trim(${senderName}), ''), i.sender_name), i.type, i.content,
      i.reply_to
    from input i
    where case when i.kind = 'chat' then (select ${chatAllowed}) else (select ${groupAllowed}) end
    order by i.ord
    on conflict (id) do nothing
    returning id, cursor, conversation_kind, conversation_id, sender_id, sender_name, type, content, created_at,
      reply_to_id
  ),
  latest as (
    select distinct on (ins.conversation_kind, ins.conversation_id)
      ins.conversation_kind, ins.conversation_id, ins.sender_id, ins.cursor, ins.created_at, i.preview, i.user_a, i.user_b
    from ins join input i on i.id = ins.id
    order by ins.conversation_kind, ins.conversation_id, ins.cursor desc
  ),
  up_chats as (
    insert into chats (id, user_a, user_b, last_message, last_message_time, last_message_sender, last_message_cursor, last_updated)
    select conversation_id, user_a, user_b, preview, created_at, sender_id, cursor, created_at
    from latest where conversation_kind = 'chat' order by conversation_id
    on conflict (id) do update set last_message = excluded.last_message, last_message_time = excluded.last_message_time,
      last_message_sender = excluded.last_message_sender, last_message_cursor = excluded.last_message_cursor,
      last_updated = excluded.last_updated
    where chats.last_message_cursor < excluded.last_message_cursor
  ),
  up_groups as (${recordGroups})
  select ins.*,
    case when ins.conversation_kind = 'group' then ${groupMembers} end as members,
    case when ins.conversation_kind = 'group' then ${senderBlockers} end as blockers,
    case when ins.conversation_kind = 'chat' then ${peerUnread} end as peer_unread_before
  from ins join input i on i.id = ins.id`;
  return preparedStatement('chat_write_batch', text);
}

/**
 * Stores a batch of messages in one statement (one round trip, atomic): each only when its sender may write
 * there (friends / member) and its id is new, in the order given (cursors follow it). Moves each conversation's
 * last* fields to its newest message of the batch. Ids must be distinct. Returns the written ones by id; an id
 * missing was not written (taken already, or not allowed).
 */
export async function insertMessages(
  db: Db,
  statement: WriteBatchStatement,
  batch: MessageToWrite[],
): Promise<Map<string, WrittenMessage>> {
  if (!batch.length) return new Map();
  const json = JSON.stringify(
    batch.map((m, ord) => {
      const [a, b] = [m.senderId, m.peerId ?? ''].sort();
      return {
        ord,
        id: m.id,
        kind: m.conversation.kind,
        conv: m.conversation.id,
        sender: m.senderId,
        sender_name: m.senderName,
        peer: m.peerId ?? '',
        user_a: a,
        user_b: b,
        type: m.type,
        content: m.content,
        preview: m.preview,
        reply_to: m.replyToId ?? null,
      };
    }),
  );
  const rows = await runPrepared<RawMessage>(db, statement, json);
  return new Map(
    rows.map((raw) => [
      raw.id,
      {
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
          editedAt: null,
          deletedAt: null,
          changeCursor: null,
          changedAt: null,
          replyToId: raw.reply_to_id ?? null,
        },
        members: raw.members ?? [],
        blockers: raw.blockers ?? [],
        peerUnreadBefore: Number(raw.peer_unread_before ?? 0),
      },
    ]),
  );
}

export async function findMessages(db: Db, ids: string[]): Promise<Map<string, MessageRow>> {
  if (!ids.length) return new Map();
  const rows = await db.select().from(messages).where(inArray(messages.id, ids));
  return new Map(rows.map((r) => [r.id, r]));
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

/**
 * The page around a message cursor, oldest first: the message (when in this conversation) and the older ones
 * before it take the larger half of the page, the newer ones after it the rest.
 */
export async function messagePageAround(
  db: Db,
  ref: ConversationRef,
  around: number,
  limit: number,
): Promise<{ rows: MessageRow[]; hasMore: boolean; hasNewer: boolean }> {
  const newerWanted = Math.floor(limit / 2);
  const olderWanted = limit - newerWanted;
  const [older, newer] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(and(inConversation(ref), lte(messages.cursor, around)))
      .orderBy(desc(messages.cursor))
      .limit(olderWanted + 1),
    db
      .select()
      .from(messages)
      .where(and(inConversation(ref), gt(messages.cursor, around)))
      .orderBy(asc(messages.cursor))
      .limit(newerWanted + 1),
  ]);
  return {
    rows: [...older.slice(0, olderWanted).reverse(), ...newer.slice(0, newerWanted)],
    hasMore: older.length > olderWanted,
    hasNewer: newer.length > newerWanted,
  };
}

/** A page of the messages after a cursor, oldest first (the next newer page of a conversation opened mid-way). */
export async function messagePageAfter(
  db: Db,
  ref: ConversationRef,
  after: number,
  limit: number,
): Promise<{ rows: MessageRow[]; hasMore: boolean; hasNewer: boolean }> {
  const [rows, older] = await Promise.all([
    db
      .select()
      .from(messages)
      .where(and(inConversation(ref), gt(messages.cursor, after)))
      .orderBy(asc(messages.cursor))
      .limit(limit + 1),
    db
      .select({ one: sql<number>`1` })
      .from(messages)
      .where(and(inConversation(ref), lte(messages.cursor, after)))
      .limit(1),
  ]);
  return { rows: rows.slice(0, limit), hasMore: older.length > 0, hasNewer: rows.length > limit };
}

export async function newestCursorIn(db: Db, ref: ConversationRef): Promise<number> {
  const [row] = await db
    .select({ cursor: max(messages.cursor) })
    .from(messages)
    .where(inConversation(ref));
  return Number(row?.cursor ?? 0);
}

/** The newest cursor of a message or of a change to one (edits and deletions take the sequence's next value). */
export async function newestCursor(db: Db): Promise<number> {
  const [row] = await db.select({ cursor: max(messages.cursor), change: max(messages.changeCursor) }).from(messages);
  return Math.max(Number(row?.cursor ?? 0), Number(row?.change ?? 0));
}

/** Ids of the user's chats with current friends (a chat with someone no longer a friend is closed to both). */
function memberChats(access: AccessSql, userId: string): SQL {
  const peer = sql`case when ${chats.userA} = ${userId} then ${chats.userB} else ${chats.userA} end`;
  return sql`select ${chats.id} from ${chats}
    where (${chats.userA} = ${userId} or ${chats.userB} = ${userId}) and ${access.chatAllowed(sql`${userId}`, peer)}`;
}

/** Ids of the groups the user is a member of (a hot group also needs its course: the caller filters). */
const memberGroups = (access: AccessSql, userId: string): SQL =>
  access.group ? access.group.idsOf(sql`${userId}`) : sql`select null::text where false`;

/** How far back (in cursors) a resync looks for messages that committed out of order. */
export const RESYNC_LOOKBACK = 2000;

/** A row of `messagesSince`: whether the message itself is new after the cursor, and whether a change to it is. */
export type SinceRow = MessageRow & { created: boolean; changed: boolean };

/**
 * Messages of the user's current conversations (chats with friends, groups they belong to) after `cursor`,
 * plus those created in the 10 s before the message at `cursor` (within RESYNC_LOOKBACK cursors): a message
 * whose transaction committed after a newer one was seen has a smaller cursor, so a resync looks a little
 * back. Clients keep messages by id, so the few they already hold change nothing. Without `lookBack` (PGlite:
 * one connection, transactions one after the other, so cursors commit in order) exactly those after `cursor`.
 * Edits and deletions count the same way by their change cursor (`changed`), oldest event first.
 */
export async function messagesSince(
  db: Db,
  access: AccessSql,
  userId: string,
  cursor: number,
  limit: number,
  lookBack: boolean,
): Promise<SinceRow[]> {
  // The moment of the cursor: its message's creation, or (a change's cursor) when that change was made.
  const changedAt = sql`${messages.changedAt}`;
  const seenAt = sql`coalesce((select ${messages.createdAt} from ${messages} where ${messages.cursor} = ${cursor}),
    (select ${changedAt} from ${messages} where ${messages.changeCursor} = ${cursor}))`;
  const after = (column: SQL, at: SQL) =>
    lookBack
      ? and(
          gt(column, cursor - RESYNC_LOOKBACK),
          or(gt(column, cursor), sql`${at} >= ${seenAt} - interval '10 seconds'`),
        )!
      : gt(column, cursor);
  const created = after(sql`${messages.cursor}`, sql`${messages.createdAt}`);
  const changed = after(sql`${messages.changeCursor}`, changedAt);
  const myChats = memberChats(access, userId);
  const myGroups = memberGroups(access, userId);
  return db
    .select({
      ...getTableColumns(messages),
      created: sql<boolean>`coalesce(${created}, false)`,
      changed: sql<boolean>`coalesce(${changed}, false)`,
    })
    .from(messages)
    .where(
      and(
        or(
          and(eq(messages.conversationKind, 'chat'), sql`${messages.conversationId} in (${myChats})`),
          and(eq(messages.conversationKind, 'group'), sql`${messages.conversationId} in (${myGroups})`),
        ),
        or(created, changed),
      ),
    )
    .orderBy(asc(sql`greatest(${messages.cursor}, coalesce(${messages.changeCursor}, 0))`))
    .limit(limit);
}

/** Whether any message still carries this content (an attachment's address may be sent twice). */
export async function contentInUse(db: Db, content: string): Promise<boolean> {
  const [row] = await db.select({ id: messages.id }).from(messages).where(eq(messages.content, content)).limit(1);
  return !!row;
}

/** Removes a conversation's messages and read positions (a group whose last member left). */
export async function deleteConversation(db: Db, ref: ConversationRef): Promise<void> {
  await db.delete(messages).where(inConversation(ref));
  await deleteReadState(db, ref);
}

/**
 * The newest messages matching `query` (a tsquery) in the conversations the user belongs to: chats with current
 * friends and groups they are a member of (the rules of `messagesSince`), except the groups in `skipGroups`. Each
 * conversation is read newest first through its (kind, id, cursor) index, so the work is bounded by the user's own
 * conversations, never by how often a word occurs across everyone's messages.
 */
export async function searchMessages(
  db: Db,
  access: AccessSql,
  userId: string,
  query: SQL,
  limit: number,
  skipGroups: string[] = [],
  exceptSenders: string[] = [],
): Promise<MessageRow[]> {
  const notFrom = exceptSenders.length
    ? sql`and (m.sender_id is null or m.sender_id <> all (array[${sql.join(
        exceptSenders.map((id) => sql`${id}`),
        sql`, `,
      )}]::text[]))`
    : sql``;
  const skip = skipGroups.length
    ? sql`where g.id not in (${sql.join(
        skipGroups.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const result = await db.execute(sql`
    with mine (kind, id) as (
      select 'chat', c.id from (${memberChats(access, userId)}) c
      union all
      select 'group', g.id from (${memberGroups(access, userId)}) g(id) ${skip}
    )
    select m.* from mine cross join lateral (
      select m.id, m.cursor, m.conversation_kind, m.conversation_id, m.sender_id, m.sender_name, m.type,
        m.content, m.created_at, m.edited_at, m.deleted_at, m.change_cursor, m.changed_at, m.reply_to_id
      from ${messages} m
      where m.conversation_kind = mine.kind and m.conversation_id = mine.id and m.search_vector @@ ${query} ${notFrom}
      order by m.cursor desc limit ${limit}
    ) m
    order by m.cursor desc limit ${limit}`);
  type Found = Omit<RawMessage, 'members' | 'peer_unread_before'> & {
    edited_at: string | Date | null;
    deleted_at: string | Date | null;
    change_cursor: string | number | null;
    changed_at: string | Date | null;
  };
  return (result as unknown as { rows: Found[] }).rows.map((r) => ({
    id: r.id,
    cursor: Number(r.cursor),
    conversationKind: r.conversation_kind,
    conversationId: r.conversation_id,
    senderId: r.sender_id,
    senderName: r.sender_name,
    type: r.type,
    content: r.content,
    createdAt: new Date(r.created_at),
    editedAt: r.edited_at === null ? null : new Date(r.edited_at),
    deletedAt: r.deleted_at === null ? null : new Date(r.deleted_at),
    changeCursor: r.change_cursor === null ? null : Number(r.change_cursor),
    changedAt: r.changed_at === null ? null : new Date(r.changed_at),
    replyToId: r.reply_to_id,
  }));
}
