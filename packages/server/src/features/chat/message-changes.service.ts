import {
  CHAT_LIMITS,
  messagePreview,
  peerOf,
  type ChatMessage,
  type ConversationRef,
  type EditMessageInput,
} from '@studybuddy/shared/chat';
import { filePathOfUrl } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden, notFound } from '../../platform/errors.ts';
import { deleteStoredFile } from '../files/files.service.ts';
import { accessSql, authorize, authorizeRead } from './conversation-access.ts';
import * as repo from './conversation.repository.ts';
import * as readState from './read-state.repository.ts';
import * as changes from './message-changes.repository.ts';
import * as extras from './message-extras.repository.ts';
import { cleanText } from './message-text.ts';

/**
 * A sender's own messages after sending (issue 24 point 4): deleting one for everyone (any type; its picture or voice
 * file goes from storage) and editing a text within CHAT_LIMITS.editWindowMinutes. Both are told live to every
 * member's tabs (`message.updated`, and `chat.updated` when the lists' last message changed), reach a reconnecting
 * tab through its resync (the change cursor), and last: a deleted message shows as "Message deleted" after a reload.
 * A moderator deletes any message the same way (`deleteMessageAsModerator`).
 */

const sameConversation = (row: repo.MessageRow, ref: ConversationRef) =>
  row.conversationKind === ref.kind && row.conversationId === ref.id;

/**
 * The user's own message `messageId` of the conversation. 403 (the conversation's own text) when the user may not
 * use the conversation (`to` write in it, or only read it: a student who blocked the other keeps their chat
 * read-only), whatever the id; 404 when the conversation holds no such message; 403 when it is another member's.
 */
async function ownMessage(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  messageId: string,
  to: 'read' | 'write',
): Promise<repo.MessageRow> {
  await (to === 'read' ? authorizeRead : authorize)(ctx, userId, ref);
  const row = await repo.findMessage(ctx.db, messageId);
  if (!row || !sameConversation(row, ref)) throw notFound(MSG.chat.messageNotFound);
  if (row.senderId !== userId) throw forbidden(MSG.chat.notYourMessage);
  return row;
}

/** Who reads the conversation: a chat's two students, a group's members. */
export async function audienceOf(ctx: AppContext, ref: ConversationRef): Promise<string[]> {
  if (ref.kind === 'chat') return ref.id.split('_');
  return changes.groupMemberIds(ctx.db, accessSql(ctx), ref.id);
}

type Change = { kind: 'delete' } | { kind: 'edit'; content: string };

/**
 * Makes the change and, when it is the conversation's newest message, the lists' last message text, in one
 * transaction; then tells every member's tabs. Undefined when nothing changed (deleted, or too old to edit).
 */
async function applyChange(
  ctx: AppContext,
  row: repo.MessageRow,
  change: Change,
): Promise<repo.MessageRow | undefined> {
  const ref: ConversationRef = { kind: row.conversationKind, id: row.conversationId };
  const done = await withTransaction(ctx.db, async (tx) => {
    const changed =
      change.kind === 'delete'
        ? await changes.markDeleted(tx, row.id)
        : await changes.editText(tx, row.id, change.content, CHAT_LIMITS.editWindowMinutes);
    if (!changed) return undefined;
    // A message deleted for everyone takes its reactions with it (issue 30).
    if (change.kind === 'delete') await extras.deleteReactionsOf(tx, row.id);
    const message = await extras.toFullMessage(tx, changed);
    const newest = await changes.isNewest(tx, ref, changed.cursor);
    if (newest) await changes.recordLastPreview(tx, accessSql(ctx), changed, messagePreview(message));
    return { changed, message, newest };
  });
  if (!done) return undefined;
  const { changed, message, newest } = done;
  // Committed: told at once, so nothing that fails from here on keeps the members from hearing it.
  const audience = await audienceOf(ctx, ref);
  ctx.realtime.toUsers(audience, { type: 'message.updated', message, cursor: changed.changeCursor ?? changed.cursor });
  if (newest) {
    const last = {
      lastMessage: messagePreview(message),
      lastMessageTime: message.createdAt,
      lastMessageSender: message.senderId,
    };
    ctx.realtime.toUsers(audience, { type: 'chat.updated', conversation: ref, last });
  }
  if (change.kind === 'delete') await afterDeletion(ctx, row, message, audience, newest);
  return changed;
}

/**
 * What a deletion takes with it once committed: the unread count of everyone who had not read the message yet, its
 * picture or voice file (unless another message carries the same one), and its push notice.
 */
async function afterDeletion(
  ctx: AppContext,
  before: repo.MessageRow,
  message: ChatMessage,
  audience: string[],
  newest: boolean,
) {
  const ref = message.conversation;
  const recipients = audience.filter((id) => id !== before.senderId);
  try {
    for (const userId of await readState.readBefore(ctx.db, ref, recipients, before.cursor)) {
      const count = await readState.unreadCount(ctx.db, userId, ref);
      const friendId = ref.kind === 'chat' ? (peerOf(ref.id, userId) ?? undefined) : undefined;
      ctx.realtime.toUsers([userId], { type: 'unread.changed', conversation: ref, friendId, count });
    }
  } catch (err) {
    ctx.log.error({ err, messageId: before.id }, 'chat: unread counts after a deletion failed');
  }
  const path = before.type === 'text' ? null : filePathOfUrl(before.content);
  if (path) {
    try {
      if (!(await repo.contentInUse(ctx.db, before.content))) await deleteStoredFile(ctx, path);
    } catch (err) {
      ctx.log.error({ err, messageId: before.id }, 'chat: could not delete the file of a deleted message');
    }
  }
  for (const listen of ctx.registry.messageDeletionListeners) listen({ message, recipients, newest });
}

/**
 * Deletes the user's own message for everyone (text, picture or voice). Deleting it again answers the same; the
 * message as it is now (content empty, `deletedAt` set).
 */
export async function deleteOwnMessage(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  messageId: string,
): Promise<ChatMessage> {
  // A student who blocked the other may still take back what they said in their read-only chat.
  const row = await ownMessage(ctx, userId, ref, messageId, 'read');
  if (!row.deletedAt) await applyChange(ctx, row, { kind: 'delete' });
  const now = await repo.findMessage(ctx.db, messageId);
  return extras.toFullMessage(ctx.db, now ?? row);
}

/**
 * Replaces the text of the user's own text message, within CHAT_LIMITS.editWindowMinutes of sending (403 after,
 * with a text that says so); marked edited. The same text again changes nothing.
 */
export async function editOwnMessage(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  messageId: string,
  input: EditMessageInput,
): Promise<ChatMessage> {
  const row = await ownMessage(ctx, userId, ref, messageId, 'write');
  if (row.deletedAt) throw notFound(MSG.chat.alreadyDeleted);
  if (row.type !== 'text') throw badRequest(MSG.chat.onlyTextEditable, 'content');
  const content = cleanText(input.content).trim();
  if (!content) throw badRequest(MSG.chat.emptyMessage, 'content');
  if (content === row.content) return extras.toFullMessage(ctx.db, row);
  const edited = await applyChange(ctx, row, { kind: 'edit', content });
  if (edited) return extras.toFullMessage(ctx.db, edited);
  // Nothing was changed: deleted meanwhile, or sent too long ago (the database's clock decides).
  const now = await repo.findMessage(ctx.db, messageId);
  if (!now || now.deletedAt) throw notFound(MSG.chat.alreadyDeleted);
  throw forbidden(MSG.chat.editWindowOver);
}

/**
 * Deletes any message on a moderator's decision (the admin area, issue 24 point 3) as its sender would: the members
 * see "Message deleted" live and after a reload, its file leaves storage, it leaves search and push. Reports keep
 * their own copy. The message as it was before (the audit log quotes it), or null when there is no such message or
 * it was deleted already. `moderatorId` is only logged: the moderation feature keeps the audit log.
 */
export async function deleteMessageAsModerator(
  ctx: AppContext,
  messageId: string,
  moderatorId?: string,
): Promise<ChatMessage | null> {
  const row = await repo.findMessage(ctx.db, messageId);
  if (!row || row.deletedAt) return null;
  if (!(await applyChange(ctx, row, { kind: 'delete' }))) return null;
  ctx.log.info({ messageId, moderatorId }, 'chat: a message was deleted by a moderator');
  return repo.toChatMessage(row);
}
