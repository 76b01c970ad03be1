import type { AppContext } from '../../platform/context.ts';
import { registerAccountCleanup } from '../auth/account-deletion.service.ts';
import { removeAccountMessages } from './account-data.service.ts';
import { registerChatFiles } from './attachments.service.ts';
import { chatRoutes } from './chat.routes.ts';
import { registerChatSocket } from './chat.socket.ts';
import { createMessagesService } from './messages.service.ts';

/**
 * One-to-one chats and the messages of every conversation: its attachments' upload targets and file rules, its
 * socket topics and ops, and its routes.
 */
export function chatFeature(ctx: AppContext) {
  const messages = createMessagesService(ctx);
  ctx.registry.chatMessages = messages;
  registerChatFiles(ctx);
  registerChatSocket(ctx, messages);
  // A deleted account's chats go; its group messages stay, from "Deleted student".
  registerAccountCleanup(ctx, (userId) => removeAccountMessages(ctx, userId));
  return chatRoutes(ctx, messages);
}
