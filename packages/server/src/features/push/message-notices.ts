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
  /** Runs a look-up later (the sender's queue) and sends what it finds. */
  schedule(find: () => Promise<Delivery[]>): void;
  /** Node's clock and timers unless a test drives time itself. */
  clock?: NoticeClock;
}

export interface NoticeClock {
  now(): number;
  /** Calls `fn` once `ms` have passed; `cancel` stops that. */
  after(fn: () => void, ms: number): { cancel(): void };
}

const nodeClock: NoticeClock = {
  now: () => Date.now(),
  after(fn, ms) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return { cancel: () => clearTimeout(timer) };
  },
};

const keyOf = ({ conversation }: ChatMessage) => `${conversation.kind}:${conversation.id}`;

/**
 * Look-ups start at most this often: a busy chat's notices wait for the next one together (a push takes seconds to
 * arrive anyway), where one look-up per written batch was a query every 2 ms at 1,000 msg/s.
 */
export const LOOKUP_GAP_MS = 250;

/**
 * Message notices are looked up together: every notice added before a look-up starts (at most one each
 * LOOKUP_GAP_MS) shares its one query of the recipients' subscriptions (a busy chat made a query per conversation and
 * batch: 5,000 in 7,500 messages), and mutes and group names are read only when some recipient has a subscription.
 * A conversation keeps only its newest notice (they share a tag, so the newer replaces the older anyway).
 */
export function createMessageNotices({ db, registry, schedule, clock = nodeClock }: Deps) {
  const pending = new Map<string, MessageNotice>();
  let timer: { cancel(): void } | undefined;
  let lastStart = -Infinity;
  let started: (() => void)[] = [];

  /** Hands what is pending to the sender as one look-up. */
  function start() {
    timer = undefined;
    lastStart = clock.now();
    const notices = [...pending.values()];
    pending.clear();
    if (notices.length) schedule(() => lookUp(notices));
    for (const resolve of started) resolve();
    started = [];
  }

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
      for (const notice of notices) {
        const { senderId } = notice.message;
        const recipients = notice.recipients.filter((id) => id !== senderId);
        if (senderId && recipients.length) pending.set(keyOf(notice.message), { ...notice, recipients });
      }
      if (timer || !pending.size) return;
      timer = clock.after(start, Math.max(0, lastStart + LOOKUP_GAP_MS - clock.now()));
    },

    /** Resolves once every notice added so far is in the sender's hands. */
    handedOver(): Promise<void> {
      return timer ? new Promise((resolve) => started.push(resolve)) : Promise.resolve();
    },

    /** Drops what waits for a look-up (the app closes). */
    close(): void {
      timer?.cancel();
      pending.clear();
      start();
    },
  };
}
