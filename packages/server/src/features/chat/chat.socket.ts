import type { AppContext } from '../../platform/context.ts';
import { canListen, newestCursor, sendMessage, since, typing } from './messages.service.ts';

/** Plugs the messages into the real-time socket: resync, conversation topics, typing and sending. */
export function registerChatSocket(ctx: AppContext): void {
  ctx.realtime.handle({
    currentCursor: () => newestCursor(ctx),
    since: (userId, cursor, max) => since(ctx, userId, cursor, max),
    authorizeTopic: (userId, topic) => canListen(ctx, userId, topic),
    typing: (userId, conversation) => typing(ctx, userId, conversation),
    send: (userId, conversation, message) => sendMessage(ctx, userId, conversation, message),
  });
}
