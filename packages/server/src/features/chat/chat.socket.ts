import type { AppContext } from '../../platform/context.ts';
import { canListen, newestCursor, since, typing, type MessagesService } from './messages.service.ts';

/**
 * Plugs the messages into the real-time socket: conversation topics (members only), typing, sending (answered
 * by an `ack` after the commit), and the missed messages a reconnecting socket resyncs from.
 */
export function registerChatSocket(ctx: AppContext, messages: MessagesService): void {
  const { realtime } = ctx;
  realtime.registerTopic('conversation:', (userId, topic) => canListen(ctx, userId, topic));
  realtime.registerOp('typing', async ({ userId }, frame) => typing(ctx, userId, frame.conversation));
  realtime.registerOp('send', async ({ userId }, frame) => {
    const result = await messages.send(userId, frame.conversation, frame.message);
    return { type: 'ack', ref: frame.message.id, message: result.message, created: result.created };
  });
  realtime.registerReplay({
    cursor: () => newestCursor(ctx),
    since: (userId, cursor, max) => since(ctx, userId, cursor, max),
  });
}
