import type { FastifyInstance } from 'fastify';
import {
  idParamSchema,
  matchQuerySchema,
  searchQuerySchema,
  sendRequestSchema,
  type FriendsList,
  type MatchPage,
  type NotificationBadge,
  type NotificationsList,
  type PublicProfile,
  type SearchResult,
  type SendRequestResult,
} from '@studybuddy/shared/social';
import type { AppContext } from '../../platform/context.ts';
import { parse } from '../../platform/errors.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import { MSG } from '@studybuddy/shared/messages';
import { notifyFriendRequest, notifyRequestAccepted } from '../push/push.service.ts';
import { requireMember } from './member.ts';
import { noticeFriendRequest, userOfUnsubscribeToken } from './request-mail.ts';
import { disableRequestMails } from './request-mail.repository.ts';
import { matchPage, search } from './match.service.ts';
import { acceptRequest, declineRequest, sendRequest, unfriend, unsendRequest } from './requests.service.ts';
import {
  friendsOf,
  incomingRequests,
  markRequestsViewed,
  notificationBadge,
  profileSummary,
} from './social.service.ts';

/** Match finder, user search, friend requests, notifications and friends (issue 5). */
export function socialRoutes(ctx: AppContext) {
  const { db } = ctx;
  const quota = createQuota(db);
  const requestsPerDay = {
    what: MSG.quota.friendRequestsPerDay,
    limit: ctx.config.limits.friendRequestsPerDay,
    windowMs: DAY_MS,
    when: MSG.quota.tryTomorrow,
  };
  /** Tells every open tab of these students that their requests, notifications or friends changed. */
  const changed = (userIds: string[], requestId?: string) =>
    ctx.realtime.toUsers(userIds, { type: 'friendRequest.changed', ...(requestId ? { requestId } : {}) });

  /** E-mail notices still being sent; the app waits for them when it closes. */
  const mailing = new Set<Promise<void>>();
  const mailNotice = (fromUserId: string, toUserId: string) => {
    const sending = noticeFriendRequest(ctx, fromUserId, toUserId).finally(() => mailing.delete(sending));
    mailing.add(sending);
  };

  return async (app: FastifyInstance) => {
    app.addHook('onClose', async () => {
      await Promise.allSettled([...mailing]);
    });

    app.get('/api/social/matches', async (request): Promise<MatchPage> => {
      const me = await requireMember(db, request);
      return matchPage(db, me, parse(matchQuerySchema, request.query));
    });

    app.get('/api/social/search', async (request): Promise<SearchResult> => {
      const me = await requireMember(db, request);
      return { users: await search(db, me, parse(searchQuerySchema, request.query)) };
    });

    app.post('/api/social/requests', async (request, reply): Promise<SendRequestResult> => {
      const me = await requireMember(db, request);
      const { toUserId } = parse(sendRequestSchema, request.body);
      // QUOTA_FRIEND_REQUESTS_PER_DAY: a refused request (already sent, other college, ...) is given back.
      const quotaKey = `friend-requests:${me.id}`;
      await quota.consume(quotaKey, requestsPerDay);
      const result = await sendRequest(db, me, toUserId).catch(async (err: unknown) => {
        await quota.refund(quotaKey);
        throw err;
      });
      changed([me.id, toUserId], result.requestId);
      if (result.outcome === 'sent') {
        mailNotice(me.id, toUserId);
        notifyFriendRequest(ctx, me, toUserId, result.requestId);
      } else {
        // They had asked first: sending back accepts their request.
        notifyRequestAccepted(ctx, me, toUserId);
      }
      reply.status(result.outcome === 'sent' ? 201 : 200);
      return result;
    });

    app.post('/api/social/requests/:id/accept', async (request) => {
      const me = await requireMember(db, request);
      const { id } = parse(idParamSchema, request.params);
      const result = await acceptRequest(db, me, id);
      changed([me.id, result.friendId], id);
      notifyRequestAccepted(ctx, me, result.friendId);
      return result;
    });

    app.post('/api/social/requests/:id/decline', async (request) => {
      const me = await requireMember(db, request);
      const { id } = parse(idParamSchema, request.params);
      const { fromUserId } = await declineRequest(db, me, id);
      changed([me.id, fromUserId], id);
      return { ok: true };
    });

    app.delete('/api/social/requests/:id', async (request) => {
      const me = await requireMember(db, request);
      const { id } = parse(idParamSchema, request.params);
      const { toUserId } = await unsendRequest(db, me, id);
      changed([me.id, toUserId], id);
      return { ok: true };
    });

    app.get('/api/social/notifications', async (request): Promise<NotificationsList> => {
      const me = await requireMember(db, request);
      return { requests: await incomingRequests(db, me.id) };
    });

    app.post('/api/social/notifications/viewed', async (request) => {
      const me = await requireMember(db, request);
      const updated = await markRequestsViewed(db, me.id);
      if (updated) changed([me.id]);
      return { updated };
    });

    app.get('/api/social/notifications/badge', async (request): Promise<NotificationBadge> => {
      const me = await requireMember(db, request);
      return notificationBadge(db, me.id);
    });

    app.get('/api/social/friends', async (request): Promise<FriendsList> => {
      const me = await requireMember(db, request);
      return { friends: await friendsOf(db, me.id) };
    });

    app.delete('/api/social/friends/:id', async (request) => {
      const me = await requireMember(db, request);
      const { id } = parse(idParamSchema, request.params);
      await unfriend(db, me, id);
      changed([me.id, id]);
      return { ok: true };
    });

    app.get('/api/social/profiles/:id', async (request): Promise<PublicProfile> => {
      const me = await requireMember(db, request);
      const { id } = parse(idParamSchema, request.params);
      return profileSummary(db, me.id, id);
    });

    /** One-click unsubscribe link of the friend-request e-mail: turns emailNotificationsEnabled off. */
    app.get('/api/social/unsubscribe', async (request, reply) => {
      const { token } = request.query as { token?: unknown };
      const userId = typeof token === 'string' ? userOfUnsubscribeToken(ctx.config.secretKey, token) : null;
      const ok = userId !== null && (await disableRequestMails(db, userId));
      const text = ok ? MSG.notifications.unsubscribed : MSG.notifications.unsubscribeInvalid;
      return reply
        .status(ok ? 200 : 400)
        .type('text/html; charset=utf-8')
        .send(`<!doctype html><html lang="en"><title>StudyBuddy</title><main><p>${text}</p></main></html>`);
    });
  };
}
