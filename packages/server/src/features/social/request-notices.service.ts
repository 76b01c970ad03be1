import { chatIdFor } from '@studybuddy/shared/chat';
import { conversationTopic } from '@studybuddy/shared/realtime';
import type { AppContext } from '../../platform/context.ts';
import { profiles } from '../profile/profiles.service.ts';
import { claimMailSlot } from './request-mail.repository.ts';
import { friendRequestMail, unsubscribeToken } from './request-mail.ts';

/** Who is told of a request: push notices, given by the push feature (a declared dependency). */
export interface RequestPush {
  friendRequest(from: { id: string; name: string }, toUserId: string, requestId: string): void;
  accepted(by: { id: string; name: string }, toUserId: string): void;
}

export type RequestNotices = ReturnType<typeof createRequestNoticesService>;

/**
 * What a change of requests, friendships or blocks tells: the students' open tabs (real-time), the recipient's
 * e-mail (new in this version, not in requirements §4: when their emailNotificationsEnabled is on, at most once a
 * day per sender and recipient, with a one-click unsubscribe link) and push notices. E-mails still being sent are
 * waited for when the app closes (`drain`).
 */
export function createRequestNoticesService(deps: {
  ctx: Pick<AppContext, 'db' | 'config' | 'mailer' | 'log' | 'realtime'>;
  push: RequestPush;
}) {
  const { ctx, push } = deps;
  const mailing = new Set<Promise<void>>();

  /** Sends the e-mail notice when the recipient wants it; never throws (the request itself already succeeded). */
  async function mail(fromUserId: string, toUserId: string): Promise<void> {
    try {
      const [recipient, sender] = await Promise.all([
        profiles.mailContact(ctx.db, toUserId),
        profiles.member(ctx.db, fromUserId),
      ]);
      if (!recipient?.notify || !sender) return;
      if (!(await claimMailSlot(ctx.db, fromUserId, toUserId))) return;
      const token = unsubscribeToken(ctx.config.secretKey, toUserId);
      await ctx.mailer.send(friendRequestMail(ctx.config.publicUrl, recipient.email, sender.name, token));
    } catch (err) {
      ctx.log.error({ err, fromUserId, toUserId }, 'friend request e-mail failed');
    }
  }

  return {
    /** Every open tab of these students refreshes their requests, notifications or friends. */
    changed(userIds: string[], requestId?: string): void {
      ctx.realtime.toUsers(userIds, { type: 'friendRequest.changed', ...(requestId ? { requestId } : {}) });
    },
    /** A friendship ended: their one-to-one chat closes to both at once, on every socket of every instance. */
    chatClosed(a: string, b: string): void {
      ctx.realtime.revoke([a, b], conversationTopic({ kind: 'chat', id: chatIdFor(a, b) }));
    },
    /** A request was sent: e-mail (in the background) and push to the recipient. */
    sent(from: { id: string; name: string }, toUserId: string, requestId: string): void {
      const sending = mail(from.id, toUserId).finally(() => mailing.delete(sending));
      mailing.add(sending);
      push.friendRequest(from, toUserId, requestId);
    },
    accepted(by: { id: string; name: string }, toUserId: string): void {
      push.accepted(by, toUserId);
    },
    async drain(): Promise<void> {
      await Promise.allSettled([...mailing]);
    },
  };
}
