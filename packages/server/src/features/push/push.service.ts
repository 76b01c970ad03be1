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
import type { Config } from '../../config.ts';
import type { FastifyBaseLogger } from 'fastify';
import type { Realtime } from '../../platform/realtime/realtime.ts';
import type { PushNotices, Registry } from '../../platform/registry.ts';
import { badRequest, forbidden } from '../../platform/errors.ts';
import { quotaExceeded } from '../../platform/quota.ts';
import { endpointAllowed, keysValid } from './endpoint-policy.ts';
import { createMessageNotices } from './message-notices.ts';
import { Presence } from './presence.ts';
import { PushSender, type Delivery } from './push-sender.ts';
import * as repo from './push.repository.ts';

export interface PushDeps {
  db: Db;
  config: Pick<Config, 'push' | 'limits'>;
  log: FastifyBaseLogger;
  realtime: Realtime;
  /** The group rule (who may mute a group, a group's name in a notice). */
  registry: Registry;
}

export type PushService = ReturnType<typeof createPushService>;

const subscriptionId = (endpoint: string) => createHash('sha256').update(endpoint).digest('hex');

/** Sessions that end take their browsers' subscriptions with them (in the transaction that ends them). */
export const forgetSessions = (db: Db, sessionIds: string[]): Promise<void> =>
  repo.deleteSessionSubscriptions(db, sessionIds);

/** Looks up a notice's subscriptions and queues it (none once the service is closed). */
interface Scheduler {
  schedule(find: () => Promise<Delivery[]>): void;
  deliveries(
    userIds: readonly string[],
    notice: { kind: 'messages' | 'friendRequests'; groupId?: string },
    payload: PushPayload,
  ): Promise<Delivery[]>;
  idle(): Promise<void>;
}

/** The notices other features send (`ctx.registry.push`). */
function noticesOf({ schedule, deliveries, idle }: Scheduler) {
  return {
    friendRequest(from, toUserId, requestId) {
      const payload: PushPayload = {
        title: MSG.push.friendRequestTitle,
        body: MSG.push.friendRequestBody(from.name),
        url: ROUTES.notifications,
        tag: `request:${requestId}`,
      };
      schedule(() => deliveries([toUserId], { kind: 'friendRequests' }, payload));
    },
    requestAccepted(by, toUserId) {
      const payload: PushPayload = {
        title: MSG.push.acceptedTitle,
        body: MSG.push.acceptedBody(by.name),
        url: `${ROUTES.friends}?friend=${encodeURIComponent(by.id)}`,
        tag: `accepted:${by.id}`,
      };
      schedule(() => deliveries([toUserId], { kind: 'friendRequests' }, payload));
    },
    reminder(userIds, payload) {
      if (!userIds.length) return;
      schedule(() => deliveries(userIds, { kind: 'messages' }, payload));
    },
    studySession(userIds, payload, groupId) {
      if (!userIds.length) return;
      schedule(() => deliveries(userIds, { kind: 'messages', ...(groupId ? { groupId } : {}) }, payload));
    },
    idle,
  } satisfies PushNotices;
}

/**
 * Web Push notices (issue 17): a new chat or group message while none of the recipient's tabs is visible, a
 * friend request, an accepted request, reminders and study sessions. Other features reach the notices through
 * `ctx.registry.push` (`notices`); they return at once and are looked up and sent in the background
 * (push-sender.ts). Sending starts when the service is built; `close` stops it.
 */
export function createPushService(deps: PushDeps) {
  const { db, config, registry } = deps;
  const sender = new PushSender({
    config: config.push,
    log: deps.log,
    onGone: (id) => repo.deleteSubscription(db, id),
  });
  const presence = new Presence(db, deps.log);
  let open = true;
  deps.realtime.registerOp('visibility', async ({ userId, socketId }, frame) => {
    await presence.set(userId, socketId, frame.visible);
  });
  deps.realtime.onSocketClosed(({ userId, socketId }) => presence.set(userId, socketId, false));

  const schedule = (find: () => Promise<Delivery[]>): void => {
    if (open) sender.schedule(find);
  };

  async function deliveries(
    userIds: readonly string[],
    notice: { kind: 'messages' | 'friendRequests'; groupId?: string },
    payload: PushPayload,
  ): Promise<Delivery[]> {
    const targets = await repo.targetsOf(db, userIds, notice);
    return targets.map((subscription) => ({ subscription, payload }));
  }

  const messageNotices = createMessageNotices({ db, registry, schedule });
  const idle = async () => {
    await messageNotices.handedOver();
    await sender.idle();
  };
  const notices = noticesOf({ schedule, deliveries, idle });

  async function settingsView(userId: string): Promise<PushSettingsView> {
    const [settings, mutedGroups] = await Promise.all([repo.readSettings(db, userId), repo.mutedGroupsOf(db, userId)]);
    return { ...settings, mutedGroups };
  }

  return {
    notices,
    publicKey: () => config.push.publicKey,

    async subscribe(user: { id: string; sessionId: string }, input: PushSubscriptionInput): Promise<void> {
      if (!endpointAllowed(input.endpoint, config.push.serviceHosts)) {
        throw badRequest(MSG.push.invalidEndpoint, 'endpoint');
      }
      if (!keysValid(input.keys)) throw badRequest(MSG.push.invalidKeys, 'keys');
      const id = subscriptionId(input.endpoint);
      const limit = config.limits.pushDevices;
      if ((await repo.subscriptionCount(db, user.id, id)) >= limit) {
        throw quotaExceeded({ what: MSG.push.quotaDevices, when: MSG.push.quotaWhen }, limit);
      }
      await repo.saveSubscription(db, {
        id,
        userId: user.id,
        sessionId: user.sessionId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
      });
    },

    async unsubscribe(userId: string, endpoint: string): Promise<void> {
      await repo.deleteOwnSubscription(db, userId, subscriptionId(endpoint));
    },

    settingsView,

    async saveSettings(userId: string, settings: PushSettings): Promise<PushSettingsView> {
      await repo.writeSettings(db, userId, settings);
      return settingsView(userId);
    },

    /** Mutes or unmutes a group's message notices; only a member may. */
    async muteGroup(userId: string, groupId: string, muted: boolean): Promise<PushSettingsView> {
      // Only a group the student may read (its owner's rule on the app context says).
      const groups = registry.conversationKinds.get('group');
      if (!groups) throw forbidden(MSG.groups.notMember);
      await groups.authorize(userId, groupId);
      await repo.setGroupMuted(db, userId, groupId, muted);
      return settingsView(userId);
    },

    /**
     * New messages, each with who should hear of it (the members at the time it was written, less the sender). Of
     * several messages of one conversation only the newest is announced (they share one notification anyway).
     */
    notifyNewMessages(written: { message: ChatMessage; recipients: string[] }[]): void {
      messageNotices.add(written.map((w) => ({ ...w, body: previewOf(w.message.type, w.message.content) })));
    },

    /**
     * A message deleted for everyone leaves push: when it was its conversation's newest (the one the conversation's
     * notice shows) and recent enough that a notice of it may still wait or show, recipients with no visible tab get
     * a notice under the same tag saying "Message deleted". The push service replaces an undelivered notice of the
     * same topic with it, and the browser replaces a shown one of the same tag, so its text is gone either way.
     */
    notifyMessageDeleted({
      message,
      recipients,
      newest,
    }: {
      message: ChatMessage;
      recipients: string[];
      newest: boolean;
    }) {
      if (!newest) return;
      if (Date.now() - Date.parse(message.createdAt) > PUSH_LIMITS.ttlSeconds * 1000) return;
      messageNotices.add([{ message, recipients, body: MSG.chat.messageDeleted }]);
    },

    /** Stops sending (the app closes). */
    async close(): Promise<void> {
      open = false;
      messageNotices.close();
      await sender.close();
      await presence.close();
    },
  };
}
