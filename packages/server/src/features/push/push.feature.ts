import type { AppContext } from '../../platform/context.ts';
import { pushRoutes } from './push.routes.ts';
import { notifyNewMessages } from './push.service.ts';

/** Web Push; new chat and group messages reach it from the chat feature's listeners. */
export function pushFeature(ctx: AppContext) {
  ctx.registry.messageListeners.push((written) => notifyNewMessages(ctx, written));
  return pushRoutes(ctx);
}
