import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { chatIdFor } from '@studybuddy/shared/chat';
import { conversationTopic } from '@studybuddy/shared/realtime';
import { idParamSchema, matchQuerySchema, searchQuerySchema, sendRequestSchema } from '@studybuddy/shared/social';
import {
  acceptRequestResultSchema,
  friendsListSchema,
  matchPageSchema,
  notificationBadgeSchema,
  notificationsListSchema,
  notificationsViewedSchema,
  publicProfileSchema,
  searchResultSchema,
  sendRequestResultSchema,
} from '@studybuddy/shared/social-responses';
import type { AppContext } from '../../platform/context.ts';
import { errorResponses, okSchema } from '../../platform/openapi.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import { MSG } from '@studybuddy/shared/messages';
import { notifyFriendRequest, notifyRequestAccepted } from '../push/push.service.ts';
import { signedIn } from '../../platform/session.ts';
import { requireMember } from './member.ts';
import { disableRequestMails, noticeFriendRequest, userOfUnsubscribeToken } from './request-mail.ts';
import { matchPage, search } from './match.service.ts';
import { acceptRequest, declineRequest, sendRequest, unfriend, unsendRequest } from './requests.service.ts';
import {
  friendsOf,
  incomingRequests,
  markRequestsViewed,
  notificationBadge,
  profileSummary,
} from './social.service.ts';

const unsubscribePage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const unsubscribeQuery = z.object({ token: z.unknown().describe('The token of the e-mail link') });

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

  return async (base: FastifyInstance) => {
    const app = base.withTypeProvider<ZodTypeProvider>();
    const tags = ['social'];
    const preValidation = signedIn;
    app.addHook('onClose', async () => {
      await Promise.allSettled([...mailing]);
    });

    app.get(
      '/api/social/matches',
      {
        preValidation,
        schema: {
          summary: 'A page of match suggestions (same college, best first)',
          tags,
          querystring: matchQuerySchema,
          response: { 200: matchPageSchema, ...errorResponses },
        },
      },
      async (request) => matchPage(db, await requireMember(db, request), request.query),
    );

    app.get(
      '/api/social/search',
      {
        preValidation,
        schema: {
          summary: 'Finds students of the same college by name',
          tags,
          querystring: searchQuerySchema,
          response: { 200: searchResultSchema, ...errorResponses },
        },
      },
      async (request) => ({ users: await search(db, await requireMember(db, request), request.query) }),
    );

    app.post(
      '/api/social/requests',
      {
        preValidation,
        schema: {
          summary: 'Sends a friend request (201), or accepts theirs when they had asked first (200)',
          tags,
          body: sendRequestSchema,
          response: { 200: sendRequestResultSchema, 201: sendRequestResultSchema, ...errorResponses },
        },
      },
      async (request, reply) => {
        const me = await requireMember(db, request);
        const { toUserId } = request.body;
        // QUOTA_FRIEND_REQUESTS_PER_DAY: a refused request (already sent, other college, ...) is given back.
        const quotaKey = `friend-requests:${me.id}`;
        await quota.consume(quotaKey, requestsPerDay);
        const { unseen, ...result } = await sendRequest(db, me, toUserId).catch(async (err: unknown) => {
          await quota.refund(quotaKey);
          throw err;
        });
        // To a student who blocked the sender: answered like any sent request, and nothing reaches them.
        if (unseen) return reply.status(201).send(result);
        changed([me.id, toUserId], result.requestId);
        if (result.outcome === 'sent') {
          mailNotice(me.id, toUserId);
          notifyFriendRequest(ctx, me, toUserId, result.requestId);
        } else {
          // They had asked first: sending back accepts their request.
          notifyRequestAccepted(ctx, me, toUserId);
        }
        return reply.status(result.outcome === 'sent' ? 201 : 200).send(result);
      },
    );

    app.post(
      '/api/social/requests/:id/accept',
      {
        preValidation,
        schema: {
          summary: 'Accepts a friend request addressed to the student',
          tags,
          params: idParamSchema,
          response: { 200: acceptRequestResultSchema, ...errorResponses },
        },
      },
      async (request) => {
        const me = await requireMember(db, request);
        const { id } = request.params;
        const result = await acceptRequest(db, me, id);
        changed([me.id, result.friendId], id);
        notifyRequestAccepted(ctx, me, result.friendId);
        return result;
      },
    );

    app.post(
      '/api/social/requests/:id/decline',
      {
        preValidation,
        schema: {
          summary: 'Declines a friend request addressed to the student',
          tags,
          params: idParamSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request) => {
        const me = await requireMember(db, request);
        const { id } = request.params;
        const { fromUserId } = await declineRequest(db, me, id);
        changed([me.id, fromUserId], id);
        return { ok: true as const };
      },
    );

    app.delete(
      '/api/social/requests/:id',
      {
        preValidation,
        schema: {
          summary: 'Takes back a friend request the student sent',
          tags,
          params: idParamSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request) => {
        const me = await requireMember(db, request);
        const { id } = request.params;
        const { toUserId } = await unsendRequest(db, me, id);
        changed([me.id, toUserId], id);
        return { ok: true as const };
      },
    );

    app.get(
      '/api/social/notifications',
      {
        preValidation,
        schema: {
          summary: 'Pending friend requests addressed to the student',
          tags,
          response: { 200: notificationsListSchema, ...errorResponses },
        },
      },
      async (request) => ({ requests: await incomingRequests(db, (await requireMember(db, request)).id) }),
    );

    app.post(
      '/api/social/notifications/viewed',
      {
        preValidation,
        schema: {
          summary: 'Marks the pending requests viewed (clears the badge highlight)',
          tags,
          response: { 200: notificationsViewedSchema, ...errorResponses },
        },
      },
      async (request) => {
        const me = await requireMember(db, request);
        const updated = await markRequestsViewed(db, me.id);
        if (updated) changed([me.id]);
        return { updated };
      },
    );

    app.get(
      '/api/social/notifications/badge',
      {
        preValidation,
        schema: {
          summary: 'The notifications badge: pending requests and whether any is unviewed',
          tags,
          response: { 200: notificationBadgeSchema, ...errorResponses },
        },
      },
      async (request) => notificationBadge(db, (await requireMember(db, request)).id),
    );

    app.get(
      '/api/social/friends',
      {
        preValidation,
        schema: { summary: "The student's friends", tags, response: { 200: friendsListSchema, ...errorResponses } },
      },
      async (request) => ({ friends: await friendsOf(db, (await requireMember(db, request)).id) }),
    );

    app.delete(
      '/api/social/friends/:id',
      {
        preValidation,
        schema: {
          summary: 'Ends a friendship',
          tags,
          params: idParamSchema,
          response: { 200: okSchema, ...errorResponses },
        },
      },
      async (request) => {
        const me = await requireMember(db, request);
        const { id } = request.params;
        await unfriend(db, me, id);
        changed([me.id, id]);
        // Their one-to-one chat closes to both at once: every socket (on every instance) stops hearing it.
        ctx.realtime.revoke([me.id, id], conversationTopic({ kind: 'chat', id: chatIdFor(me.id, id) }));
        return { ok: true as const };
      },
    );

    app.get(
      '/api/social/profiles/:id',
      {
        preValidation,
        schema: {
          summary: "Another student's profile as a friend or request party may see it (never e-mail or LMS fields)",
          tags,
          params: idParamSchema,
          response: { 200: publicProfileSchema, ...errorResponses },
        },
      },
      async (request) => profileSummary(db, (await requireMember(db, request)).id, request.params.id),
    );

    /** One-click unsubscribe link of the friend-request e-mail: turns emailNotificationsEnabled off. */
    const unsubscribe = {
      summary: 'One-click unsubscribe link of the friend-request e-mail (an HTML page)',
      tags,
      querystring: unsubscribeQuery,
      response: { 200: unsubscribePage('Unsubscribed'), 400: unsubscribePage('The link is not valid') },
    };
    app.get('/api/social/unsubscribe', { schema: unsubscribe }, async (request, reply) => {
      const { token } = request.query;
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
