import type { ChatMessage } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import type { PushPayload } from '@studybuddy/shared/push-api';
import { ROUTES } from '@studybuddy/shared/routes';
import type { Db } from '../../db/connect.ts';
import type { Registry } from '../../platform/registry.ts';
import type { Delivery } from './push-sender.ts';
import * as repo from './push.repository.ts';

/** The notice of a conversation's message (one tag per conversation) with `body`, to the recipients but its sender. */
export interface MessageNotice {
  message: ChatMessage;
  recipients: string[];
  body: string;
}

interface Deps {
  db: Db;
  /** A group's name in its notices. */
  registry: Registry;
  /** Runs a look-up later (the sender's queue) and sends what it finds; false when it was not queued. */
  schedule(find: () => Promise<Delivery[]>): boolean;
}

const keyOf = ({ conversation }: ChatMessage) => `${conversation.kind}:${conversation.id}`;

/**
 * Message notices are looked up together: every notice added before a look-up starts shares its one query of the
 * recipients' subscriptions (a busy chat made a query per conversation and batch: 5,000 in 7,500 messages), and
 * mutes and group names are read only when some recipient has a subscription. A conversation keeps only its
 * newest notice (they share a tag, so the newer replaces the older anyway).
 */
export function createMessageNotices({ db, registry, schedule }: Deps) {
  let pending: Map<string, MessageNotice> | null = null;

  async function payloadOf({ message, body }: MessageNotice): Promise<PushPayload | null> {
    const { conversation, senderId, senderName } = message;
    if (conversation.kind === 'chat') {
      return {
        title: senderName,
        body,
        url: `${ROUTES.friends}?friend=${encodeURIComponent(senderId ?? '')}`,
        tag: `chat:${conversation.id}`,
      };
    }
    const name = (await registry.conversationKinds.get('group')?.title(conversation.id)) ?? null;
    if (name === null) return null;
    return {
      title: MSG.push.groupMessageTitle(name, senderName),
      body,
      url: `${ROUTES.groups}?group=${encodeURIComponent(conversation.id)}`,
      tag: `group:${conversation.id}`,
    };
  }

  async function lookUp(notices: MessageNotice[]): Promise<Delivery[]> {
    const users = [...new Set(notices.flatMap((n) => n.recipients))];
    const subscriptions = await repo.targetsOf(db, users, { kind: 'messages' });
    if (!subscriptions.length) return [];
    const byUser = new Map<string, repo.SubscriptionRow[]>();
    for (const s of subscriptions) byUser.set(s.userId, [...(byUser.get(s.userId) ?? []), s]);
    const groupIds = notices.flatMap(({ message: { conversation } }) =>
      conversation.kind === 'group' ? [conversation.id] : [],
    );
    const muted = await repo.mutedPairs(db, [...byUser.keys()], groupIds);
    const deliveries: Delivery[] = [];
    for (const notice of notices) {
      const { conversation } = notice.message;
      const to = notice.recipients.flatMap((userId) =>
        conversation.kind === 'group' && muted.has(`${userId}|${conversation.id}`) ? [] : (byUser.get(userId) ?? []),
      );
      if (!to.length) continue;
      const payload = await payloadOf(notice);
      if (payload) deliveries.push(...to.map((subscription) => ({ subscription, payload })));
    }
    return deliveries;
  }

  return {
    /** Queues the notices of these messages (each to its recipients but its sender). */
    add(notices: readonly MessageNotice[]): void {
      const batch: Map<string, MessageNotice> = pending ?? new Map();
      for (const notice of notices) {
        const { senderId } = notice.message;
        const recipients = notice.recipients.filter((id) => id !== senderId);
        if (senderId && recipients.length) batch.set(keyOf(notice.message), { ...notice, recipients });
      }
      if (pending || !batch.size) return;
      pending = batch;
      const queued = schedule(() => {
        if (pending === batch) pending = null;
        return lookUp([...batch.values()]);
      });
      if (!queued && pending === batch) pending = null;
    },
  };
}
