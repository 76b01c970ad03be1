import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MSG } from '@studybuddy/shared/messages';
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
import { okSchema } from '../../platform/openapi.ts';
import { routeOptions } from '../../platform/route-options.ts';
import { signedInOnly, studentId } from '../../platform/signed-in.ts';
import type { FriendsService } from './friends.service.ts';
import type { MatchService } from './match.service.ts';
import type { RequestsService } from './requests.service.ts';

const unsubscribePage = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const unsubscribeQuery = z.object({ token: z.unknown().describe('The token of the e-mail link') });
const tags = ['social'];
const route = routeOptions(tags);
const ok = { ok: true as const };

/** Match finder and user search. */
const matchRoutes = (match: MatchService) => async (base: FastifyInstance) => {
  signedInOnly(base);
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/social/matches',
    route('A page of match suggestions (same college, best first)', {
      querystring: matchQuerySchema,
      response: { 200: matchPageSchema },
    }),
    (request) => match.matchPage(studentId(request), request.query),
  );

  app.get(
    '/api/social/search',
    route('Finds students of the same college by name', {
      querystring: searchQuerySchema,
      response: { 200: searchResultSchema },
    }),
    async (request) => ({ users: await match.search(studentId(request), request.query) }),
  );
};

/** Friend requests and the notifications page. */
const requestRoutes = (requests: RequestsService) => async (base: FastifyInstance) => {
  signedInOnly(base);
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/social/requests',
    route('Sends a friend request (201), or accepts theirs when they had asked first (200)', {
      body: sendRequestSchema,
      response: { 200: sendRequestResultSchema, 201: sendRequestResultSchema },
    }),
    async (request, reply) => {
      const { created, ...result } = await requests.send(studentId(request), request.body.toUserId);
      return reply.status(created ? 201 : 200).send(result);
    },
  );

  app.post(
    '/api/social/requests/:id/accept',
    route('Accepts a friend request addressed to the student', {
      params: idParamSchema,
      response: { 200: acceptRequestResultSchema },
    }),
    (request) => requests.accept(studentId(request), request.params.id),
  );

  app.post(
    '/api/social/requests/:id/decline',
    route('Declines a friend request addressed to the student', { params: idParamSchema, response: { 200: okSchema } }),
    async (request) => (await requests.decline(studentId(request), request.params.id), ok),
  );

  app.delete(
    '/api/social/requests/:id',
    route('Takes back a friend request the student sent', { params: idParamSchema, response: { 200: okSchema } }),
    async (request) => (await requests.unsend(studentId(request), request.params.id), ok),
  );

  app.get(
    '/api/social/notifications',
    route('Pending friend requests addressed to the student', { response: { 200: notificationsListSchema } }),
    async (request) => ({ requests: await requests.incoming(studentId(request)) }),
  );

  app.post(
    '/api/social/notifications/viewed',
    route('Marks the pending requests viewed (clears the badge highlight)', {
      response: { 200: notificationsViewedSchema },
    }),
    async (request) => ({ updated: await requests.markViewed(studentId(request)) }),
  );

  app.get(
    '/api/social/notifications/badge',
    route('The notifications badge: pending requests and whether any is unviewed', {
      response: { 200: notificationBadgeSchema },
    }),
    (request) => requests.badge(studentId(request)),
  );
};

/** Friends and a friend's profile summary. */
const friendRoutes = (friends: FriendsService) => async (base: FastifyInstance) => {
  signedInOnly(base);
  const app = base.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/social/friends',
    route("The student's friends", { response: { 200: friendsListSchema } }),
    async (request) => ({ friends: await friends.list(studentId(request)) }),
  );

  app.delete(
    '/api/social/friends/:id',
    route('Ends a friendship', { params: idParamSchema, response: { 200: okSchema } }),
    async (request) => (await friends.unfriend(studentId(request), request.params.id), ok),
  );

  app.get(
    '/api/social/profiles/:id',
    route("Another student's profile as a friend or request party may see it (never e-mail or LMS fields)", {
      params: idParamSchema,
      response: { 200: publicProfileSchema },
    }),
    (request) => friends.profileSummary(studentId(request), request.params.id),
  );
};

/** Match finder, user search, friend requests, notifications and friends (issue 5). */
export function socialRoutes(services: { requests: RequestsService; friends: FriendsService; match: MatchService }) {
  const { requests, friends, match } = services;

  return async (base: FastifyInstance) => {
    for (const routes of [matchRoutes(match), requestRoutes(requests), friendRoutes(friends)])
      await base.register(routes);
    const app = base.withTypeProvider<ZodTypeProvider>();

    /** One-click unsubscribe link of the friend-request e-mail (no sign-in): turns emailNotificationsEnabled off. */
    const unsubscribe = {
      summary: 'One-click unsubscribe link of the friend-request e-mail (an HTML page)',
      tags,
      querystring: unsubscribeQuery,
      response: { 200: unsubscribePage('Unsubscribed'), 400: unsubscribePage('The link is not valid') },
    };
    app.get('/api/social/unsubscribe', { schema: unsubscribe }, async (request, reply) => {
      const done = await requests.unsubscribe(request.query.token);
      const text = done ? MSG.notifications.unsubscribed : MSG.notifications.unsubscribeInvalid;
      return reply
        .status(done ? 200 : 400)
        .type('text/html; charset=utf-8')
        .send(`<!doctype html><html lang="en"><title>StudyBuddy</title><main><p>${text}</p></main></html>`);
    });
  };
}
