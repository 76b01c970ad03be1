import { conversationFolder, peerOf } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { forgetStoredFolder } from '../files/storage-quota.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import * as repo from './account-data.repository.ts';
import * as extras from './message-extras.repository.ts';

/** A message the student sent, as their data download lists it. */
export interface SentMessage {
  id: string;
  conversation: { kind: 'chat' | 'group'; id: string; name: string };
  type: 'text' | 'image' | 'voice';
  content: string;
  sentAt: string;
}

const PAGE = 500;

/**
 * Every message the student sent, oldest first, with the name of its conversation (the friend's name in a chat, the
 * group's name): read page by page, so a long history never sits in memory whole. Nothing of anyone else's but
 * those names, which the student sees in their own conversations.
 */
export async function* sentMessages(ctx: AppContext, userId: string): AsyncGenerator<SentMessage> {
  const nameOf = conversationNames(ctx, userId);
  for (let after = 0; ; ) {
    const rows = await repo.sentMessagesAfter(ctx.db, userId, after, PAGE);
    for (const r of rows) {
      yield {
        id: r.id,
        conversation: {
          kind: r.conversationKind,
          id: r.conversationId,
          name: await nameOf(r.conversationKind, r.conversationId),
        },
        type: r.type,
        content: r.content,
        sentAt: r.createdAt.toISOString(),
      };
    }
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.cursor;
  }
}

/** A reaction the student gave (issue 30), as their data download lists it. */
export interface OwnReaction {
  emoji: string;
  messageId: string;
  conversation: { kind: 'chat' | 'group'; name: string };
  reactedAt: string;
}

/** Every reaction the student gave, oldest first, with the name of the message's conversation. */
export async function reactionsForExport(ctx: AppContext, userId: string): Promise<OwnReaction[]> {
  const nameOf = conversationNames(ctx, userId);
  const rows = await extras.reactionsByUser(ctx.db, userId);
  const out: OwnReaction[] = [];
  for (const r of rows) {
    out.push({
      emoji: r.emoji,
      messageId: r.messageId,
      conversation: { kind: r.conversationKind, name: await nameOf(r.conversationKind, r.conversationId) },
      reactedAt: r.createdAt.toISOString(),
    });
  }
  return out;
}

/** The names of the student's conversations as they see them (the friend's name, the group's), looked up once each. */
function conversationNames(ctx: AppContext, userId: string) {
  const names = new Map<string, string>();
  return async (kind: 'chat' | 'group', id: string): Promise<string> => {
    const key = `${kind}:${id}`;
    let name = names.get(key);
    if (name === undefined) {
      if (kind === 'chat') {
        const peer = peerOf(id, userId);
        name = (peer && (await profiles.name(ctx.db, peer))) || MSG.chat.deletedUser;
      } else {
        name = (await ctx.registry.conversationKinds.get(kind)?.title(id)) ?? '';
      }
      names.set(key, name);
    }
    return name;
  };
}

/**
 * Before an account goes: its one-to-one chats go for both students (with their messages, read positions and
 * files: nobody can open them any more), its pictures and voice messages in groups go, and its remaining group
 * messages show as from "Deleted student"; their reactions go. The files the student sent elsewhere go with the files feature's clean-up.
 */
export async function removeAccountMessages(ctx: AppContext, userId: string): Promise<void> {
  const chatIds = await withTransaction(ctx.db, async (tx) => {
    const ids = await repo.chatIdsOf(tx, userId);
    // Their reactions go everywhere (issue 30); those to the chats' messages would go with them anyway.
    await extras.deleteReactionsBy(tx, userId);
    await repo.deleteChats(tx, ids);
    await repo.orphanGroupMessages(tx, userId, MSG.chat.deletedUser);
    return ids;
  });
  for (const id of chatIds) {
    const folder = conversationFolder({ kind: 'chat', id });
    await ctx.storage.deletePrefix(folder);
    // The friend's pictures in the chat went too: they no longer count against the friend's storage.
    await forgetStoredFolder(ctx.db, folder);
  }
}
