import { createHash } from 'node:crypto';
import { previewOf, type ChatMessage } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import type { PushPayload } from '@studybuddy/shared/push-api';
import {
  PUSH_LIMITS,
  type PushSettings,
  type PushSettingsView,
  type PushSubscriptionInput,
} from '@studybuddy/shared/push';
import { ROUTES } from '@studybuddy/shared/routes';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { quotaExceeded } from '../../platform/quota.ts';
import { endpointAllowed, keysValid } from './endpoint-policy.ts';
import { Presence } from './presence.ts';
import { PushSender, type Delivery } from './push-sender.ts';
import * as repo from './push.repository.ts';

/**
 * Web Push notices (issue 17): a new chat or group message while none of the recipient's tabs is visible, a
 * friend request, an accepted request. Other features call the notify* functions; they return at once and the
 * notices are looked up and sent in the background (push-sender.ts).
 */

interface PushRuntime {
  sender: PushSender;
  presence: Presence;
}

const runtimes = new WeakMap<AppContext, PushRuntime>();

/** Starts sending for this app (push.routes.ts does, once); the returned function stops it. */
export function startPush(ctx: AppContext): () => Promise<void> {
  const runtime: PushRuntime = {
    sender: new PushSender({
      config: ctx.config.push,
      log: ctx.log,
      onGone: (id) => repo.deleteSubscription(ctx.db, id),
    }),
    presence: new Presence(ctx.db, ctx.log),
  };
  runtimes.set(ctx, runtime);
  ctx.realtime.registerOp('visibility', async ({ userId, socketId }, frame) => {
    await runtime.presence.set(userId, socketId, frame.visible);
  });
  ctx.realtime.onSocketClosed(({ userId, socketId }) => runtime.presence.set(userId, socketId, false));
  return async () => {
    runtimes.delete(ctx);
    await runtime.sender.close();
    await runtime.presence.close();
  };
}

/** Resolves once every notice asked for so far has been sent or given up (tests wait on it). */
export function pushIdle(ctx: AppContext): Promise<void> {
  return runtimes.get(ctx)?.sender.idle() ?? Promise.resolve();
}

const subscriptionId = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

export async function subscribe(
  ctx: AppContext,
  user: { id: string; sessionId: string },
  input: PushSubscriptionInput,
): Promise<void> {
  if (!endpointAllowed(input.endpoint, ctx.config.push.serviceHosts)) {
    throw badRequest(MSG.push.invalidEndpoint, 'endpoint');
  }
  if (!keysValid(input.keys)) throw badRequest(MSG.push.invalidKeys, 'keys');
  const id = subscriptionId(input.endpoint);
  const limit = ctx.config.limits.pushDevices;
  if ((await repo.subscriptionCount(ctx.db, user.id, id)) >= limit) {
    throw quotaExceeded({ what: MSG.push.quotaDevices, when: MSG.push.quotaWhen }, limit);
  }
  await repo.saveSubscription(ctx.db, {
    id,
    userId: user.id,
    sessionId: user.sessionId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
  });
}

/** Sessions that end take their browsers' subscriptions with them (in the transaction that ends them). */
export const forgetSessions = (db: Db, sessionIds: string[]): Promise<void> =>
  repo.deleteSessionSubscriptions(db, sessionIds);

export async function unsubscribe(ctx: AppContext, userId: string, endpoint: string): Promise<void> {
  await repo.deleteOwnSubscription(ctx.db, userId, subscriptionId(endpoint));
}

export async function settingsView(ctx: AppContext, userId: string): Promise<PushSettingsView> {
  const [settings, mutedGroups] = await Promise.all([
    repo.readSettings(ctx.db, userId),
    repo.mutedGroupsOf(ctx.db, userId),
  ]);
  return { ...settings, mutedGroups };
}

export async function saveSettings(ctx: AppContext, userId: string, settings: PushSettings): Promise<PushSettingsView> {
  await repo.writeSettings(ctx.db, userId, settings);
  return settingsView(ctx, userId);
}

/** Mutes or unmutes a group's message notices; only a member may. */
export async function muteGroup(
  ctx: AppContext,
  userId: string,
  groupId: string,
  muted: boolean,
): Promise<PushSettingsView> {
  // Only a group the student may read (its owner's rule on the app context says).
  const groups = ctx.registry.conversationKinds.get('group');
  if (!groups) throw forbidden(MSG.groups.notMember);
  await groups.authorize(userId, groupId);
  await repo.setGroupMuted(ctx.db, userId, groupId, muted);
  return settingsView(ctx, userId);
}

function schedule(ctx: AppContext, find: () => Promise<Delivery[]>): void {
  runtimes.get(ctx)?.sender.schedule(find);
}

async function deliveries(
  ctx: AppContext,
  userIds: readonly string[],
  notice: { kind: 'messages' | 'friendRequests'; groupId?: string },
  payload: PushPayload,
): Promise<Delivery[]> {
  const targets = await repo.targetsOf(ctx.db, userIds, notice);
  return targets.map((subscription) => ({ subscription, payload }));
}

/**
 * New messages, each with who should hear of it (the members at the time it was written, less the sender). Of
 * several messages of one conversation only the newest is announced (they share one notification anyway).
 */
export function notifyNewMessages(ctx: AppContext, written: { message: ChatMessage; recipients: string[] }[]): void {
  if (!runtimes.has(ctx)) return;
  const newest = new Map<string, { message: ChatMessage; recipients: string[] }>();
  for (const w of written) newest.set(`${w.message.conversation.kind}:${w.message.conversation.id}`, w);
  for (const { message, recipients } of newest.values()) {
    scheduleMessageNotice(ctx, message, recipients, previewOf(message.type, message.content));
  }
}

/** The notice of a conversation's message (one tag per conversation) with `body`, to the recipients but its sender. */
function scheduleMessageNotice(ctx: AppContext, message: ChatMessage, recipients: string[], body: string): void {
  const senderId = message.senderId;
  const to = recipients.filter((id) => id !== senderId);
  if (!to.length || !senderId) return;
  const { conversation } = message;
  schedule(ctx, async () => {
    if (conversation.kind === 'chat') {
      const payload: PushPayload = {
        title: message.senderName,
        body,
        url: `${ROUTES.friends}?friend=${encodeURIComponent(senderId)}`,
        tag: `chat:${conversation.id}`,
      };
      return deliveries(ctx, to, { kind: 'messages' }, payload);
    }
    const name = (await ctx.registry.conversationKinds.get('group')?.title(conversation.id)) ?? null;
    if (name === null) return [];
    const payload: PushPayload = {
      title: MSG.push.groupMessageTitle(name, message.senderName),
      body,
      url: `${ROUTES.groups}?group=${encodeURIComponent(conversation.id)}`,
      tag: `group:${conversation.id}`,
    };
    return deliveries(ctx, to, { kind: 'messages', groupId: conversation.id }, payload);
  });
}

/**
 * A message deleted for everyone leaves push: when it was its conversation's newest (the one the conversation's
 * notice shows) and recent enough that a notice of it may still wait or show, recipients with no visible tab get a
 * notice under the same tag saying "Message deleted". The push service replaces an undelivered notice of the same
 * topic with it, and the browser replaces a shown one of the same tag, so its text is gone either way.
 */
export function notifyMessageDeleted(
  ctx: AppContext,
  { message, recipients, newest }: { message: ChatMessage; recipients: string[]; newest: boolean },
): void {
  if (!runtimes.has(ctx) || !newest) return;
  if (Date.now() - Date.parse(message.createdAt) > PUSH_LIMITS.ttlSeconds * 1000) return;
  scheduleMessageNotice(ctx, message, recipients, MSG.chat.messageDeleted);
}

/** A friend request from `from` to `toUserId`; the notice opens the notifications page. */
export function notifyFriendRequest(
  ctx: AppContext,
  from: { id: string; name: string },
  toUserId: string,
  requestId: string,
): void {
  const payload: PushPayload = {
    title: MSG.push.friendRequestTitle,
    body: MSG.push.friendRequestBody(from.name),
    url: ROUTES.notifications,
    tag: `request:${requestId}`,
  };
  schedule(ctx, () => deliveries(ctx, [toUserId], { kind: 'friendRequests' }, payload));
}

/** `by` accepted the request `toUserId` sent; the notice opens the chat with the new friend. */
export function notifyRequestAccepted(ctx: AppContext, by: { id: string; name: string }, toUserId: string): void {
  const payload: PushPayload = {
    title: MSG.push.acceptedTitle,
    body: MSG.push.acceptedBody(by.name),
    url: `${ROUTES.friends}?friend=${encodeURIComponent(by.id)}`,
    tag: `accepted:${by.id}`,
  };
  schedule(ctx, () => deliveries(ctx, [toUserId], { kind: 'friendRequests' }, payload));
}

/**
 * A reminder (issue 28: flashcards due today) to these students, under the messages setting: sent only while none of
 * their tabs is visible (an open app shows its own); the notice opens `payload.url`.
 */
export function notifyReminder(ctx: AppContext, userIds: readonly string[], payload: PushPayload): void {
  if (!userIds.length) return;
  schedule(ctx, () => deliveries(ctx, userIds, { kind: 'messages' }, payload));
}

/**
 * A study session's notice (issue 27: its reminder, a change, a cancellation) to these students, under the messages
 * setting (and a group's mute); the notice opens the session. Sent whether or not a tab is visible: a reminder is
 * about time, not about unread messages.
 */
export function notifyStudySession(
  ctx: AppContext,
  userIds: readonly string[],
  payload: PushPayload,
  groupId?: string,
): void {
  if (!userIds.length) return;
  schedule(ctx, () => deliveries(ctx, userIds, { kind: 'messages', ...(groupId ? { groupId } : {}) }, payload));
}
