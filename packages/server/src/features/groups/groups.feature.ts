import type { AppContext } from '../../platform/context.ts';
import { groupConversationRule } from './group-conversations.ts';
import { groupsRoutes } from './groups.routes.ts';

/** Groups and hot groups; their conversations' access rule is given to the chat feature. */
export function groupsFeature(ctx: AppContext) {
  ctx.registry.conversationKinds.set('group', groupConversationRule(ctx));
  return groupsRoutes(ctx);
}
