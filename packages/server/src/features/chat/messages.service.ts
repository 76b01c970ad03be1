import {
  peerOf,
  previewOf,
  type ConversationRef,
  type HistoryQuery,
  type MessagePage,
  type SendMessageInput,
  type SendMessageResult,
} from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { conversationTopic, type SinceResult } from '@studybuddy/shared/realtime';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import { attachmentIsValid } from './attachments.service.ts';
import * as repo from './conversation.repository.ts';

/**
 * Messages of every conversation kind: one-to-one chats (only friends) and groups (only members).
 * Other features (groups) call these functions; only conversation.repository.ts touches the tables.
 */

export interface Access {
  ref: ConversationRef;
  /** The friend, in a one-to-one chat. */
  peerId?: string;
}

/** The user's access to a conversation, or 403: a chat needs the two to be friends, a group membership. */
export async function authorize(db: Db, userId: string, ref: ConversationRef): Promise<Access> {
  if (ref.kind === 'chat') {
    const peerId = peerOf(ref.id, userId);
    if (!peerId || !(await repo.areFriends(db, userId, peerId))) throw forbidden(MSG.chat.notFriends);
    return { ref, peerId };
  }
  if (!(await repo.isGroupMember(db, ref.id, userId))) throw forbidden(MSG.groups.notMember);
  return { ref };
}

const idConflict = () => new AppError(409, 'conflict', MSG.chat.idConflict, 'id');

/** A stored message answers a retry only when it is the same sender's message to the same conversation. */
function sameMessage(
  row: NonNullable<Awaited<ReturnType<typeof repo.findMessage>>>,
  userId: string,
  ref: ConversationRef,
) {
  return row.senderId === userId && row.conversationKind === ref.kind && row.conversationId === ref.id;
}

/**
 * Stores a message once whatever the retries (the client's id is the key) and answers after the commit (one
 * atomic statement). Publishes `message.created` to every member and the friend's new unread count.
 */
export async function sendMessage(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  input: SendMessageInput,
): Promise<SendMessageResult> {
  if (input.type !== 'text' && !(await attachmentIsValid(ctx, ref, input.type, input.content))) {
    // A retry of a stored message needs no check of its file.
    const stored = await repo.findMessage(ctx.db, input.id);
    if (!stored) throw new AppError(400, 'bad_request', MSG.chat.badAttachment, 'content');
  }
  const content = input.type === 'text' ? input.content.trim() : input.content;
  const peerId = ref.kind === 'chat' ? (peerOf(ref.id, userId) ?? undefined) : undefined;
  const inserted =
    ref.kind === 'chat' && !peerId
      ? undefined
      : await repo.insertMessageChecked(ctx.db, {
          id: input.id,
          conversation: ref,
          senderId: userId,
          senderName: MSG.chat.anonymous,
          type: input.type,
          content,
          preview: previewOf(input.type, content),
          peerId,
        });
  if (!inserted) {
    // Nothing written: the id is stored already (a retry: answer with it), or the sender may not write here.
    const stored = await repo.findMessage(ctx.db, input.id);
    if (!stored) throw forbidden(ref.kind === 'chat' ? MSG.chat.notFriends : MSG.groups.notMember);
    if (!sameMessage(stored, userId, ref)) throw idConflict();
    return { message: repo.toChatMessage(stored), created: false };
  }
  const message = repo.toChatMessage(inserted.row);
  ctx.realtime.toUsers(peerId ? [userId, peerId] : inserted.members, { type: 'message.created', message });
  if (peerId) {
    ctx.realtime.toUsers([peerId], {
      type: 'unread.changed',
      conversation: ref,
      friendId: userId,
      count: inserted.peerUnread,
    });
  }
  return { message, created: true };
}

export async function history(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  q: HistoryQuery,
): Promise<MessagePage> {
  await authorize(ctx.db, userId, ref);
  const page = await repo.messagePage(ctx.db, ref, q.before, q.limit);
  return { messages: page.rows.map(repo.toChatMessage), hasMore: page.hasMore };
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
  const access = await authorize(ctx.db, userId, ref);
  const newest = await repo.newestCursorIn(ctx.db, ref);
  const before = await repo.lastReadOf(ctx.db, userId, ref);
  const lastRead = await repo.advanceLastRead(ctx.db, userId, ref, Math.min(cursor ?? newest, newest));
  const unread = await repo.unreadCount(ctx.db, userId, ref);
  ctx.realtime.toUsers([userId], { type: 'unread.changed', conversation: ref, friendId: access.peerId, count: unread });
  if (lastRead > before && access.peerId) {
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
  // Several connections commit out of cursor order on PostgreSQL; PGlite runs one transaction at a time.
  const rows = await repo.messagesSince(ctx.db, userId, cursor, max + 1, ctx.database.kind === 'postgres');
  if (rows.length > max) return { events: [], cursor: await repo.newestCursor(ctx.db), truncated: true };
  return {
    events: rows.map((row) => ({ type: 'message.created', message: repo.toChatMessage(row) })),
    cursor: rows.reduce((c, row) => Math.max(c, row.cursor), cursor),
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
    await authorize(ctx.db, userId, ref);
    return conversationTopic(ref) === topic;
  } catch {
    return false;
  }
}

/** A typing signal to whoever has the conversation open (members only). */
export async function typing(ctx: AppContext, userId: string, ref: ConversationRef): Promise<void> {
  await authorize(ctx.db, userId, ref);
  const name = (await repo.profileName(ctx.db, userId)) || MSG.chat.anonymous;
  ctx.realtime.publish([conversationTopic(ref)], { type: 'typing', conversation: ref, userId, name });
}

/** Unread counts of the user's groups by id (only groups with unread messages). */
export const unreadOfGroups = (db: Db, userId: string, groupIds: string[]) =>
  repo.unreadFor(db, userId, 'group', groupIds);

/** Deletes a conversation's messages and read positions; call inside the transaction that removes it. */
export const deleteConversationMessages = (db: Db, ref: ConversationRef) => repo.deleteConversation(db, ref);
