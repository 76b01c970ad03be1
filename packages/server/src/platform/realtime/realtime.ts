import type { FastifyBaseLogger } from 'fastify';
import type { ChatMessage, ConversationRef, SendMessageInput } from '@studybuddy/shared/chat';
import { userTopic, type RealtimeEvent, type SinceResult } from '@studybuddy/shared/realtime';
import type { EventBus } from './event-bus.ts';
import { Hub } from './hub.ts';
import { createMemoryBus } from './memory-bus.ts';
import { createPgBus } from './pg-bus.ts';

/**
 * What features plug into the socket: the chat feature answers resyncs, decides who may listen to a
 * conversation topic, and handles typing and sending over the socket.
 */
export interface SocketHandlers {
  /** The newest message cursor (sent in `hello`). */
  currentCursor(): Promise<number>;
  /** Events the user missed after `cursor`, at most `max`. */
  since(userId: string, cursor: number, max: number): Promise<SinceResult>;
  /** Whether the user may listen to a non-user topic. */
  authorizeTopic(userId: string, topic: string): Promise<boolean>;
  typing(userId: string, conversation: ConversationRef): Promise<void>;
  send(
    userId: string,
    conversation: ConversationRef,
    message: SendMessageInput,
  ): Promise<{ message: ChatMessage; created: boolean }>;
  /** A tab reported whether it is visible; `visible` false too when a socket that was visible closes. */
  visibility(userId: string, socketId: string, visible: boolean): Promise<void>;
}

/** The real-time API every feature gets as `ctx.realtime`. */
export interface Realtime {
  readonly bus: EventBus;
  readonly hub: Hub;
  /** Delivers the event to every socket (on every instance) listening to any of the topics. Never throws. */
  publish(topics: readonly string[], event: RealtimeEvent): void;
  /** Delivers the event to every open tab of these users. */
  toUsers(userIds: readonly string[], event: RealtimeEvent): void;
  /** Makes the sockets of these users stop listening to a topic they may no longer hear. */
  revoke(userIds: readonly string[], topic: string): void;
  /** Plugs the chat feature's handlers into the socket (others keep their defaults). */
  handle(handlers: Partial<SocketHandlers>): void;
  readonly handlers: SocketHandlers;
  close(): Promise<void>;
}

const defaults: SocketHandlers = {
  currentCursor: async () => 0,
  since: async (_userId, cursor) => ({ events: [], cursor, truncated: false }),
  authorizeTopic: async () => false,
  typing: async () => undefined,
  send: async () => {
    throw new Error('sending over the socket is not available');
  },
  visibility: async () => undefined,
};

/** PostgreSQL LISTEN/NOTIFY when a database URL is configured (several instances), else in-process. */
export async function createRealtime(opts: {
  databaseUrl?: string;
  log: FastifyBaseLogger;
  channel?: string;
}): Promise<Realtime> {
  const bus = opts.databaseUrl
    ? await createPgBus({ databaseUrl: opts.databaseUrl, log: opts.log, channel: opts.channel })
    : createMemoryBus(opts.log);
  const hub = new Hub();
  const unsubscribe = bus.subscribe((envelope) => hub.deliver(envelope));
  const unGap = bus.onGap(() => hub.broadcast({ type: 'resync.required' }));
  const handlers: SocketHandlers = { ...defaults };
  return {
    bus,
    hub,
    handlers,
    publish(topics, event) {
      if (topics.length) bus.publish({ topics: [...topics], event });
    },
    toUsers(userIds, event) {
      if (userIds.length) bus.publish({ topics: [...new Set(userIds)].map(userTopic), event });
    },
    revoke(userIds, topic) {
      if (userIds.length) bus.publish({ topics: userIds.map(userTopic), control: { unsubscribe: topic } });
    },
    handle(partial) {
      Object.assign(handlers, partial);
    },
    async close() {
      unsubscribe();
      unGap();
      await bus.close();
    },
  };
}
