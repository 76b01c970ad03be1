import type { ChatMessage, ConversationRef } from '@studybuddy/shared/chat';
import type { ReactInput } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { authorize, checkBeforeWrite } from './conversation-access.ts';
import * as repo from './conversation.repository.ts';
import { audienceOf } from './message-changes.service.ts';
import * as extras from './message-extras.repository.ts';

/**
 * Reactions (issue 30 point 2): a student who may write in a conversation (a friend in a one-to-one chat, a member of
 * a group; a hot group's course too) adds or takes back one of the allowed emoji on any message there that is not
 * deleted, once per emoji. Every member's tabs hear the message's new state (`message.updated`, on every instance),
 * and a reconnecting tab gets it in its resync: the change takes the next cursor like an edit.
 */

/**
 * Adds or takes back the student's reaction. 403 (the conversation's own text) when they may not write there,
 * whatever the message; then 404 alike for no such message and for one of another conversation (nothing is told of
 * a conversation they cannot read); 404 'deleted' for a message deleted for everyone. The message as it is now.
 */
export async function react(
  ctx: AppContext,
  userId: string,
  ref: ConversationRef,
  messageId: string,
  input: ReactInput,
): Promise<ChatMessage> {
  // A chat the student only reads (they blocked the other) is closed to reactions as it is to messages.
  await authorize(ctx, userId, ref);
  await checkBeforeWrite(ctx, userId, ref);
  const row = await repo.findMessage(ctx.db, messageId);
  if (!row || row.conversationKind !== ref.kind || row.conversationId !== ref.id) {
    throw notFound(MSG.chat.messageNotFound);
  }
  const message = await withTransaction(ctx.db, async (tx) => {
    const locked = await extras.lockForReaction(tx, messageId);
    if (!locked) return undefined;
    await extras.setReaction(tx, messageId, userId, input.emoji, input.reacted);
    return extras.toFullMessage(tx, locked);
  });
  if (!message) throw notFound(MSG.chat.alreadyDeleted);
  // Committed: every member's tabs (of every instance, through the bus) hear the message's reactions as they are now.
  ctx.realtime.toUsers(await audienceOf(ctx, ref), { type: 'message.updated', message, cursor: message.version! });
  return message;
}
