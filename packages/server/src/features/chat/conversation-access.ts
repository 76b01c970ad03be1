import type { SQL } from 'drizzle-orm';
import { peerOf, type ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, forbidden } from '../../platform/errors.ts';
import type { ConversationKindRule } from '../../platform/registry.ts';
import { blocking } from '../social/blocks.service.ts';
import { friendships } from '../social/friendships.service.ts';

/**
 * The one place that decides who may read or write a conversation, for every path: HTTP, the socket's topics,
 * attachments and file reads, resync and search, and the batch write (in SQL). A one-to-one chat is open to the
 * two while they are friends (the social feature says who is); any other kind (groups) to whom the feature
 * owning it says, through the rule it registered (`ctx.registry.conversationKinds`). A student who blocked the
 * other (issue 24) keeps reading their chat's history (`authorizeRead`), but nobody writes there any more.
 */

export interface Access {
  ref: ConversationRef;
  /** The friend, in a one-to-one chat. */
  peerId?: string;
  /** A chat the user only reads: they blocked the other student. */
  readOnly?: true;
}

const notAllowed = (ref: ConversationRef) =>
  forbidden(ref.kind === 'chat' ? MSG.chat.notFriends : MSG.groups.notMember);

function ruleOf(ctx: AppContext, ref: ConversationRef): ConversationKindRule {
  const rule = ref.kind === 'chat' ? undefined : ctx.registry.conversationKinds.get(ref.kind);
  if (!rule) throw notAllowed(ref);
  return rule;
}

/** The user's access to a conversation, or 403 (with the text of its kind). */
export async function authorize(ctx: AppContext, userId: string, ref: ConversationRef): Promise<Access> {
  if (ref.kind === 'chat') {
    const peerId = peerOf(ref.id, userId);
    if (!peerId || !(await friendships.areFriends(ctx.db, userId, peerId))) throw notAllowed(ref);
    return { ref, peerId };
  }
  await ruleOf(ctx, ref).authorize(userId, ref.id);
  return { ref };
}

/**
 * The user's access to read a conversation: `authorize`'s, and also a one-to-one chat whose other student the
 * user blocked (its history stays theirs, read-only: it may be needed for a report). Else 403.
 */
export async function authorizeRead(ctx: AppContext, userId: string, ref: ConversationRef): Promise<Access> {
  if (ref.kind === 'chat') {
    const peerId = peerOf(ref.id, userId);
    if (peerId && (await blocking.hasBlocked(ctx.db, userId, peerId))) return { ref, peerId, readOnly: true };
  }
  return authorize(ctx, userId, ref);
}

/** `authorizeRead` as a yes or no. */
export async function mayRead(ctx: AppContext, userId: string, ref: ConversationRef): Promise<boolean> {
  try {
    await authorizeRead(ctx, userId, ref);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 403) return false;
    throw err;
  }
}

/** `authorize` as a yes or no. */
export async function mayAccess(ctx: AppContext, userId: string, ref: ConversationRef): Promise<boolean> {
  try {
    await authorize(ctx, userId, ref);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.statusCode === 403) return false;
    throw err;
  }
}

/** What a send needs checked beyond membership (which the batch write checks itself); throws 403. */
export async function checkBeforeWrite(ctx: AppContext, userId: string, ref: ConversationRef): Promise<void> {
  if (ref.kind !== 'chat') await ruleOf(ctx, ref).beforeWrite(userId, ref.id);
}

/** Of the groups among `ids` the user is a member of, those they may read now (hot groups: the course too). */
export async function readableGroups(ctx: AppContext, userId: string, ids: string[]): Promise<Set<string>> {
  const rule = ctx.registry.conversationKinds.get('group');
  return rule && ids.length ? rule.readable(userId, ids) : new Set();
}

/** The pieces of SQL the chat feature's one-statement queries need, per kind; user ids are SQL expressions. */
export interface AccessSql {
  /** True when `userId` may write to the chat with `peerId` (they are friends). */
  chatAllowed(userId: SQL, peerId: SQL): SQL<boolean>;
  /** The group kind's pieces; null when no feature registered groups (then no group is open to anyone). */
  group: ConversationKindRule['sql'] | null;
}

export function accessSql(ctx: AppContext): AccessSql {
  return {
    chatAllowed: friendships.sql.areFriends,
    group: ctx.registry.conversationKinds.get('group')?.sql ?? null,
  };
}
