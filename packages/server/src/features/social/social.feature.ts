import type { FastifyInstance } from 'fastify';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { createQuota, DAY_MS } from '../../platform/quota.ts';
import { blocksRoutes } from './blocks.routes.ts';
import { createBlocksService } from './blocks.service.ts';
import { friendIds } from './friends.repository.ts';
import { createFriendsService } from './friends.service.ts';
import { createMatchService } from './match.service.ts';
import { createMembersService } from './members.service.ts';
import { createRequestNoticesService } from './request-notices.service.ts';
import { createRequestsService } from './requests.service.ts';
import { socialRoutes } from './social.routes.ts';

/**
 * The social feature: match finder, search, friend requests, friendships and blocks. A profile's friends see it.
 * Its services are built here; push notices go through the push feature's `ctx.registry.push`.
 */
export function socialFeature(ctx: AppContext) {
  const { db } = ctx;
  ctx.registry.profileAudiences.push((userId) => friendIds(db, userId));

  const members = createMembersService({ db });
  const notices = createRequestNoticesService({
    ctx,
    push: {
      friendRequest: (from, toUserId, requestId) => ctx.registry.push.friendRequest(from, toUserId, requestId),
      accepted: (by, toUserId) => ctx.registry.push.requestAccepted(by, toUserId),
    },
  });
  const requests = createRequestsService({
    db,
    members,
    notices,
    quota: createQuota(db),
    perDay: {
      what: MSG.quota.friendRequestsPerDay,
      limit: ctx.config.limits.friendRequestsPerDay,
      windowMs: DAY_MS,
      when: MSG.quota.tryTomorrow,
    },
    secretKey: ctx.config.secretKey,
  });
  const friends = createFriendsService({ db, members, notices });
  const match = createMatchService({ db, members, tiebreaks: ctx.registry.matchTiebreaks });
  const blocks = createBlocksService({ db, notices });

  return async (app: FastifyInstance) => {
    app.addHook('onClose', () => notices.drain());
    await app.register(socialRoutes({ requests, friends, match }));
    await app.register(blocksRoutes(blocks));
  };
}
