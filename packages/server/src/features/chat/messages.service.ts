import {
  peerOf,
  type ChatMessage,
  previewOf,
  type ConversationRef,
  type HistoryQuery,
  type MessagePage,
  type SendMessageInput,
  type SendMessageResult,
} from '@studybuddy/shared/chat';
import type { MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { conversationTopic, type SinceResult } from '@studybuddy/shared/realtime';
import type { SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { withinPerMinute } from '../../platform/rate-limit-presets.ts';
import { profiles } from '../profile/profiles.service.ts';
import { attachmentIsValid } from './attachments.service.ts';
import {
  accessSql,
  authorize,
  authorizeRead,
  checkBeforeWrite,
  mayAccess,
  readableGroups,
} from './conversation-access.ts';
import { GroupCommit } from './group-commit.ts';
import { cleanText } from './message-text.ts';
import * as repo from './conversation.repository.ts';
import * as readState from './read-state.repository.ts';
import * as extras from './message-extras.repository.ts';

/**
 * Messages of every conversation kind: one-to-one chats (only friends) and groups (only members).
 * Other features (groups) call these functions; only conversation.repository.ts touches the tables.
 */

const idConflict = () => new AppError(409, 'conflict', MSG.chat.idConflict, 'id');

/** A stored message answers a retry only when it is the same sender's message to the same conversation. */
function sameMessage(row: repo.MessageRow, userId: string, ref: ConversationRef) {
  return row.senderId === userId && row.conversationKind === ref.kind && row.conversationId === ref.id;
}

/** What became of one message of a batch. */
type SendOutcome =
  | { kind: 'created'; message: ChatMessage }
  /** Its id was stored already (a retry, or an id someone else used): the stored row. */
  | { kind: 'stored'; row: repo.MessageRow }
  /** Not written: the sender may not write to this conversation. */
  | { kind: 'refused' };

export type MessageWriter = GroupCommit<repo.MessageToWrite, SendOutcome>;

/**
 * The app's writer: messages arriving while a batch is being written go together in the next one. Built at the
 * first send, once the features have registered their conversation kinds (the first send comes after start-up).
 */
function lazyMessageWriter(ctx: AppContext): () => MessageWriter {
  let writer: MessageWriter | undefined;
  return () => {
    if (!writer) {
      const statement = repo.writeBatchStatement(accessSql(ctx));
      writer = new GroupCommit((batch) => writeBatch(ctx, statement, batch), {
        // Two batches side by side where the database runs transactions concurrently (never two of one
        // conversation: its order stays).
        concurrency: ctx.database.concurrent ? 2 : 1,
        keyOf: (m) => `${m.conversation.kind}:${m.conversation.id}`,
      });
    }
    return writer;
  };
}

/**
 * The messages service, one per app (built in chat.feature.ts): the one send path, through the app's group-commit
 * writer. Other features send through `ctx.registry.chatMessages` (study sessions' cards).
 */
export function createMessagesService(ctx: AppContext) {
  const writer = lazyMessageWriter(ctx);
  return {
    send: (userId: string, ref: ConversationRef, input: SendMessageInput) =>
      sendMessage(ctx, writer(), userId, ref, input),
    /** Sizes of the latest batches written (tests). */
    batchSizes: (): readonly number[] => writer().batchSizes,
  };
}

export type MessagesService = ReturnType<typeof createMessagesService>;

/**
 * Writes a batch in one atomic statement, then publishes what it stored. The first message of an id is the
 * one written; a repeat of the id in the same batch answers like a retry.
 */
async function writeBatch(
  ctx: AppContext,
  statement: repo.WriteBatchStatement,
  batch: repo.MessageToWrite[],
): Promise<SendOutcome[]> {
  const firstOf = new Map<string, repo.MessageToWrite>();
  for (const m of batch) if (!firstOf.has(m.id)) firstOf.set(m.id, m);
  const written = await repo.insertMessages(ctx.db, statement, [...firstOf.values()]);
  // Committed: published at once, so nothing that fails from here on can keep the members from hearing it. Replies
  // carry the quote of what they answer (one look-up, only when the batch holds replies).
  const created = new Map<string, ChatMessage>();
  try {
    const replyIds = [...written.values()].flatMap((w) => (w.row.replyToId ? [w.row.replyToId] : []));
    const quotes = replyIds.length ? await extras.quotesOf(ctx.db, replyIds) : new Map<string, MessageQuote>();
    publishWritten(ctx, written, firstOf, created, quotes);
  } catch (err) {
    ctx.log.error({ err }, 'chat: publishing a written batch failed');
  }
  const stored = await repo.findMessages(
    ctx.db,
    [...firstOf.keys()].filter((id) => !written.has(id)),
  );
  return batch.map((m): SendOutcome => {
    const w = written.get(m.id);
    if (w && firstOf.get(m.id) === m)
      return { kind: 'created', message: created.get(m.id) ?? repo.toChatMessage(w.row) };
    const row = w?.row ?? stored.get(m.id);
    return row ? { kind: 'stored', row } : { kind: 'refused' };
  });
}

/**
 * `message.created` to every member for each new message, in cursor order; then, per chat, the friend's new
 * unread count (the count before the batch plus the batch's messages to them).
 */
function publishWritten(
  ctx: AppContext,
  written: Map<string, repo.WrittenMessage>,
  sent: Map<string, repo.MessageToWrite>,
  created: Map<string, ChatMessage>,
  quotes: Map<string, MessageQuote>,
) {
  const unread = new Map<string, { conversation: ConversationRef; peerId: string; friendId: string; count: number }>();
  const notices: { message: ChatMessage; recipients: string[] }[] = [];
  for (const w of [...written.values()].sort((a, b) => a.row.cursor - b.row.cursor)) {
    const quote = w.row.replyToId ? quotes.get(w.row.replyToId) : undefined;
    const message = { ...repo.toChatMessage(w.row), ...(quote ? { replyTo: quote } : {}) };
    created.set(message.id, message);
    const { peerId, senderId } = sent.get(message.id)!;
    // Members who blocked the sender still get the message (their app folds it), but no notice of it.
    const blockers = new Set(w.blockers);
    notices.push({ message, recipients: peerId ? [peerId] : w.members.filter((id) => !blockers.has(id)) });
    if (!peerId) {
      ctx.realtime.toUsers(w.members, { type: 'message.created', message });
      continue;
    }
    ctx.realtime.toUsers([senderId, peerId], { type: 'message.created', message });
    const key = `${message.conversation.id}|${peerId}`;
    const entry = unread.get(key) ?? {
      conversation: message.conversation,
      peerId,
      friendId: senderId,
      count: w.peerUnreadBefore,
    };
    // The count stops at the cap, as counted from the messages (`unreadCountSql`).
    entry.count = Math.min(entry.count + 1, readState.UNREAD_COUNT_CAP);
    unread.set(key, entry);
  }
  for (const { conversation, peerId, friendId, count } of unread.values()) {
    ctx.realtime.toUsers([peerId], { type: 'unread.changed', conversation, friendId, count });
  }
  // Push notices (features/push) for recipients with no visible tab; sent in the background.
  for (const listen of ctx.registry.messageListeners) listen(notices);
}

/** Messages a student may send a minute per conversation kind (a burst past it: 429, which the outbox retries). */
export const SENDS_PER_MINUTE = 600;

/**
 * The one send path (the socket's `send` op, chat.socket.ts; the HTTP route while the socket cannot open): stores
 * a message once whatever the retries (the client's id is the key) and answers after the commit. Publishes
 * `message.created` to every member and the friend's new unread count. Messages arriving together are written
 * together (group commit), each still all or nothing. Limited per student and minute (RATE_LIMITS) like the other
 * writes.
 */
async function sendMessage(
  ctx: AppContext,
  writer: MessageWriter,
  userId: string,
  ref: ConversationRef,
  input: SendMessageInput,
): Promise<SendMessageResult> {
  await withinPerMinute(ctx.db, ctx.config.rateLimits, `send:${ref.kind}`, userId, SENDS_PER_MINUTE);
  if (input.type !== 'text' && !(await attachmentIsValid(ctx, ref, input.type, input.content))) {
    // A retry of a stored message needs no check of its file.
    const stored = await repo.findMessage(ctx.db, input.id);
    if (!stored) throw new AppError(400, 'bad_request', MSG.chat.badAttachment, 'content');
  }
  const content = input.type === 'text' ? cleanText(input.content).trim() : input.content;
  if (!content) throw new AppError(400, 'bad_request', MSG.chat.emptyMessage, 'content');
  const peerId = ref.kind === 'chat' ? (peerOf(ref.id, userId) ?? undefined) : undefined;
  // The batch writer checks membership itself; anything more (a hot group's course) is checked here.
  await checkBeforeWrite(ctx, userId, ref);
  if (input.replyTo !== undefined) await checkReplyTarget(ctx, userId, ref, input.replyTo);
  let outcome: SendOutcome;
  if (ref.kind === 'chat' && !peerId) {
    // Not a chat of this user: nothing to write, but a retry of a stored id still gets its answer.
    const row = await repo.findMessage(ctx.db, input.id);
    outcome = row ? { kind: 'stored', row } : { kind: 'refused' };
  } else {
    outcome = await writer.submit({
      id: input.id,
      conversation: ref,
      senderId: userId,
      senderName: MSG.chat.anonymous,
      type: input.type,
      content,
      preview: previewOf(input.type, content),
      peerId,
      replyToId: input.replyTo,
    });
  }
  if (outcome.kind === 'created') return { message: outcome.message, created: true };
  if (outcome.kind === 'refused') throw forbidden(ref.kind === 'chat' ? MSG.chat.notFriends : MSG.groups.notMember);
  if (!sameMessage(outcome.row, userId, ref)) throw idConflict();
  return { message: await extras.toFullMessage(ctx.db, outcome.row), created: false };
}

/**
 * A reply answers a message of the same conversation (issue 30), which the sender may write to: 403 for a
 * conversation they may not use (whatever the message), then 404 alike for no such message and for a message of any
 * other conversation, so a reply reveals nothing of a conversation the student cannot read. A deleted one may be
 * answered (an unsent reply may meet a deletion on its way); its quote says it was deleted.
 */
async function checkReplyTarget(ctx: AppContext, userId: string, ref: ConversationRef, replyTo: string) {
  await authorize(ctx, userId, ref);
  const target = await repo.findMessage(ctx.db, replyTo);
  if (!target || target.conversationKind !== ref.kind || target.conversationId !== ref.id) {
    throw notFound(MSG.chat.messageNotFound);
  }
}

export async function history(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  q: HistoryQuery,
): Promise<MessagePage> {
  // A chat with a student the user blocked stays readable to them (issue 24).
  await authorizeRead(ctx, userId, ref);
  const page =
    q.around !== undefined
      ? await repo.messagePageAround(ctx.db, ref, q.around, q.limit)
      : q.after !== undefined
        ? await repo.messagePageAfter(ctx.db, ref, q.after, q.limit)
        : { ...(await repo.messagePage(ctx.db, ref, q.before, q.limit)), hasNewer: q.before !== undefined };
  const messages = await extras.toChatMessages(ctx.db, page.rows);
  return { messages, hasMore: page.hasMore, hasNewer: page.hasNewer };
}

/**
 * The newest messages matching a tsquery in the conversations the user may read (`authorize`'s rules: chats with
 * current friends, groups they are a member of, hot groups only while they hold the course).
 */
export async function searchMessages(
  ctx: AppContext,
  userId: string,
  query: SQL,
  limit: number,
  /** Senders whose messages are left out (the search box: a blocked pair, issue 24). */
  exceptSenders: string[] = [],
): Promise<ChatMessage[]> {
  // A member of a hot group who no longer holds its course is not shown its messages: such groups are left out
  // and the search runs again (rare; each round leaves out at least one more group, so it ends).
  const skip: string[] = [];
  const checked = new Set<string>();
  const access = accessSql(ctx);
  let found = await repo.searchMessages(ctx.db, access, userId, query, limit, skip, exceptSenders);
  for (;;) {
    const groupIds = found.flatMap((row) => (row.conversationKind === 'group' ? [row.conversationId] : []));
    const unchecked = [...new Set(groupIds.filter((id) => !checked.has(id)))];
    if (!unchecked.length) break;
    const usable = await readableGroups(ctx, userId, unchecked);
    for (const id of unchecked) checked.add(id);
    const unusable = unchecked.filter((id) => !usable.has(id));
    if (!unusable.length) break;
    skip.push(...unusable);
    found = await repo.searchMessages(ctx.db, access, userId, query, limit, skip, exceptSenders);
  }
  return found.map(repo.toChatMessage);
}

/**
 * Moves the user's read position (to `cursor`, or the newest message) forward: the unread count drops to what
 * is left after it, the user's tabs hear it, and in a chat the friend hears it (their 'Seen' mark).
 */
export async function markRead(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  cursor?: number,
): Promise<{ lastRead: number; unread: number }> {
  const access = await authorizeRead(ctx, userId, ref);
  const newest = await repo.newestCursorIn(ctx.db, ref);
  const before = await readState.lastReadOf(ctx.db, userId, ref);
  const lastRead = await readState.advanceLastRead(ctx.db, userId, ref, Math.min(cursor ?? newest, newest));
  const unread = await readState.unreadCount(ctx.db, userId, ref);
  ctx.realtime.toUsers([userId], { type: 'unread.changed', conversation: ref, friendId: access.peerId, count: unread });
  // A blocked student hears nothing of the blocker reading their old chat.
  if (lastRead > before && access.peerId && !access.readOnly) {
    ctx.realtime.toUsers([access.peerId], {
      type: 'chat.updated',
      conversation: ref,
      read: { userId, cursor: lastRead },
    });
  }
  return { lastRead, unread };
}

/** What a reconnecting client missed after `cursor` (at most `max` messages, else `truncated`). */
export async function since(ctx: AppContext, userId: string, cursor: number, max: number): Promise<SinceResult> {
  // Concurrent transactions may commit out of cursor order (`messagesSince` looks back a little).
  const lookBack = ctx.database.concurrent;
  const rows = await repo.messagesSince(ctx.db, accessSql(ctx), userId, cursor, max + 1, lookBack);
  if (rows.length > max) return { events: [], cursor: await repo.newestCursor(ctx.db), truncated: true };
  // A member of a group they may no longer read (a hot group's course dropped) is not sent its messages.
  const groupIds = [...new Set(rows.flatMap((r) => (r.conversationKind === 'group' ? [r.conversationId] : [])))];
  const readable = await readableGroups(ctx, userId, groupIds);
  const shown = rows.filter((r) => r.conversationKind !== 'group' || readable.has(r.conversationId));
  // New messages as they are now, and edits and deletions of older ones, each at its own cursor.
  const events: { at: number; event: SinceResult['events'][number] }[] = [];
  const full = await extras.toChatMessages(ctx.db, shown);
  for (const [i, row] of shown.entries()) {
    const message = full[i]!;
    if (row.created) events.push({ at: row.cursor, event: { type: 'message.created', message } });
    if (row.changed && row.changeCursor !== null) {
      events.push({ at: row.changeCursor, event: { type: 'message.updated', message, cursor: row.changeCursor } });
    }
  }
  return {
    events: events.sort((a, b) => a.at - b.at).map((e) => e.event),
    cursor: rows.reduce((c, row) => Math.max(c, row.cursor, row.changeCursor ?? 0), cursor),
    truncated: false,
  };
}

export const newestCursor = (ctx: AppContext) => repo.newestCursor(ctx.db);

/** Who may listen to `conversation:<kind>:<id>`: its members. */
export async function canListen(ctx: AppContext, userId: string, topic: string): Promise<boolean> {
  const match = /^conversation:(chat|group):(.+)$/.exec(topic);
  if (!match) return false;
  const ref: ConversationRef = { kind: match[1] as ConversationRef['kind'], id: match[2]! };
  try {
    await authorize(ctx, userId, ref);
    return conversationTopic(ref) === topic;
  } catch {
    return false;
  }
}

/** A typing signal to whoever has the conversation open (members only). */
export async function typing(ctx: AppContext, userId: string, ref: ConversationRef): Promise<void> {
  await authorize(ctx, userId, ref);
  const name = (await profiles.name(ctx.db, userId)) || MSG.chat.anonymous;
  ctx.realtime.publish([conversationTopic(ref)], { type: 'typing', conversation: ref, userId, name });
}

/** Unread counts of the user's groups by id (only groups with unread messages). */
export const unreadOfGroups = (db: Db, userId: string, groupIds: string[]) =>
  readState.unreadFor(db, userId, 'group', groupIds);

/**
 * A message and up to `before` messages before it in its conversation, oldest first (a report keeps them); null when
 * there is no such message. Who may see them is the caller's to check (`mayAccess`).
 */
export async function messageWithContext(
  ctx: AppContext,
  messageId: string,
  before: number,
): Promise<{ message: ChatMessage; context: ChatMessage[] } | null> {
  const row = await repo.findMessage(ctx.db, messageId);
  // A message deleted for everyone is nothing to report any more.
  if (!row || row.deletedAt) return null;
  const ref: ConversationRef = { kind: row.conversationKind, id: row.conversationId };
  const page = before > 0 ? await repo.messagePage(ctx.db, ref, row.cursor, before) : { rows: [] };
  return { message: repo.toChatMessage(row), context: page.rows.filter((r) => !r.deletedAt).map(repo.toChatMessage) };
}

/** The newest `limit` messages of a conversation, oldest first (a report of a student keeps their chat's end). */
export async function latestMessages(ctx: AppContext, ref: ConversationRef, limit: number): Promise<ChatMessage[]> {
  const { rows } = await repo.messagePage(ctx.db, ref, undefined, limit);
  return rows.filter((r) => !r.deletedAt).map(repo.toChatMessage);
}

/** Whether the user may read the conversation now (`conversation-access.ts`'s rules), as a yes or no. */
export const mayReadConversation = (ctx: AppContext, userId: string, ref: ConversationRef) =>
  mayAccess(ctx, userId, ref);

/**
 * Which of these messages still exist, not deleted for everyone (an admin's report queue shows which reported ones
 * were deleted since).
 */
export async function existingMessageIds(ctx: AppContext, ids: string[]): Promise<Set<string>> {
  const rows = [...(await repo.findMessages(ctx.db, ids)).values()];
  return new Set(rows.filter((r) => !r.deletedAt).map((r) => r.id));
}

/**
 * A sender's changes to their own messages (delete for everyone, edit within the window) and a moderator's deletion
 * of any message, which other features (the admin area) call: `deleteMessageAsModerator(ctx, messageId)`.
 */
export { deleteMessageAsModerator, deleteOwnMessage, editOwnMessage } from './message-changes.service.ts';

/** Deletes a conversation's messages and read positions; call inside the transaction that removes it. */
export const deleteConversationMessages = (db: Db, ref: ConversationRef) => repo.deleteConversation(db, ref);
