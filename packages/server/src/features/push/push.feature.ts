import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context.ts';
import { noPushNotices } from '../../platform/registry.ts';
import { registerSessionCleanup } from '../auth/sessions.service.ts';
import { pushRoutes } from './push.routes.ts';
import { createPushService, forgetSessions } from './push.service.ts';

/**
 * Web Push; new chat and group messages reach it from the chat feature's listeners, other features' notices
 * through `ctx.registry.push`.
 */
export function pushFeature(ctx: AppContext) {
  const push = createPushService(ctx);
  ctx.registry.push = push.notices;
  ctx.registry.messageListeners.push((written) => push.notifyNewMessages(written));
  // A message deleted for everyone: the notice that showed it says so instead.
  ctx.registry.messageDeletionListeners.push((deleted) => push.notifyMessageDeleted(deleted));
  // A browser's subscription belongs to its session: it ends with it (log-out, expiry, password reset, disable).
  registerSessionCleanup(ctx, forgetSessions);
  return async (app: FastifyInstance) => {
    app.addHook('onClose', async () => {
      ctx.registry.push = noPushNotices;
      await push.close();
    });
    await app.register(pushRoutes(push));
  };
}
