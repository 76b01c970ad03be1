import type { AppContext } from '../../platform/context.ts';
import { registerSessionCleanup } from '../auth/sessions.service.ts';
import { pushRoutes } from './push.routes.ts';
import { forgetSessions, notifyMessageDeleted, notifyNewMessages } from './push.service.ts';

/** Web Push; new chat and group messages reach it from the chat feature's listeners. */
export function pushFeature(ctx: AppContext) {
  ctx.registry.messageListeners.push((written) => notifyNewMessages(ctx, written));
  // A message deleted for everyone: the notice that showed it says so instead.
  ctx.registry.messageDeletionListeners.push((deleted) => notifyMessageDeleted(ctx, deleted));
  // A browser's subscription belongs to its session: it ends with it (log-out, expiry, password reset, disable).
  registerSessionCleanup(ctx, forgetSessions);
  return pushRoutes(ctx);
}
