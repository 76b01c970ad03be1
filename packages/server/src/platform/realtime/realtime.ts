import type { FastifyBaseLogger } from 'fastify';
import {
  userTopic,
  type ClientFrame,
  type RealtimeEvent,
  type ServerFrame,
  type SinceResult,
} from '@studybuddy/shared/realtime';
import type { EventBus } from './event-bus.ts';
import { Hub } from './hub.ts';
import { createMemoryBus } from './memory-bus.ts';
import { createPgBus } from './pg-bus.ts';

/** The socket a frame came from. */
export interface SocketCaller {
  userId: string;
  /** Unique per open socket (on every instance). */
  socketId: string;
}

/** The client frames the socket itself answers; every other op is a feature's (`registerOp`). */
export type PlatformOp = 'pong' | 'resync' | 'subscribe' | 'unsubscribe';
export type FeatureOp = Exclude<ClientFrame['op'], PlatformOp>;
export type FrameOf<K extends ClientFrame['op']> = Extract<ClientFrame, { op: K }>;
/** Handles one feature op; what it returns is written back to the socket (e.g. an `ack`). */
export type OpHandler<K extends FeatureOp> = (caller: SocketCaller, frame: FrameOf<K>) => Promise<ServerFrame | void>;

/** Where a reconnecting socket's missed events come from (the chat feature's messages, by cursor). */
export interface Replay {
  /** The newest cursor (sent in `hello`). */
  cursor(): Promise<number>;
  /** Events the user missed after `cursor`, at most `max`. */
  since(userId: string, cursor: number, max: number): Promise<SinceResult>;
}

/**
 * The real-time API every feature gets as `ctx.realtime`: publishing events to topics, and the socket's
 * extension points — which topics a user may listen to, which client frames a feature handles, and where a
 * resync's events come from. The platform knows no feature: each registers what it needs when it starts.
 */
export interface Realtime {
  readonly bus: EventBus;
  readonly hub: Hub;
  /** Delivers the event to every socket (on every instance) listening to any of the topics. Never throws. */
  publish(topics: readonly string[], event: RealtimeEvent): void;
  /** Delivers the event to every open tab of these users. */
  toUsers(userIds: readonly string[], event: RealtimeEvent): void;
  /** Makes the sockets of these users stop listening to a topic they may no longer hear. */
  revoke(userIds: readonly string[], topic: string): void;
  /**
   * Closes the sockets of these users as signed out, on every instance: all of them, or only those opened with
   * session `sessionId` (log-out). Call it once the session's end is committed.
   */
  disconnect(userIds: readonly string[], sessionId?: string): void;
  /** Lets a user subscribe to topics starting with `prefix` when `authorize` says yes (their own user topic always). */
  registerTopic(prefix: string, authorize: (userId: string, topic: string) => Promise<boolean>): void;
  /** Handles the client frames of one op (once per op). */
  registerOp<K extends FeatureOp>(op: K, handler: OpHandler<K>): void;
  /** Called when a socket closes (a feature that tracks sockets forgets it). */
  onSocketClosed(listener: (caller: SocketCaller) => void | Promise<void>): void;
  /** Where resyncs read missed events from (one source). */
  registerReplay(replay: Replay): void;

  /** For the socket: whether the user may listen to a topic (the longest registered prefix decides). */
  authorizeTopic(userId: string, topic: string): Promise<boolean>;
  /** For the socket: the handler of a feature op, if one is registered. */
  opHandler<K extends FeatureOp>(op: K): OpHandler<K> | undefined;
  /** For the socket: tells the features a socket closed. */
  socketClosed(caller: SocketCaller): Promise<void>;
  readonly replay: Replay;
  close(): Promise<void>;
}

const noReplay: Replay = {
  cursor: async () => 0,
  since: async (_userId, cursor) => ({ events: [], cursor, truncated: false }),
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
  const topics = new Map<string, (userId: string, topic: string) => Promise<boolean>>();
  const ops = new Map<FeatureOp, (caller: SocketCaller, frame: never) => Promise<ServerFrame | void>>();
  const closedListeners: ((caller: SocketCaller) => void | Promise<void>)[] = [];
  let replay = noReplay;
  return {
    bus,
    hub,
    get replay() {
      return replay;
    },
    publish(topics, event) {
      if (topics.length) bus.publish({ topics: [...topics], event });
    },
    toUsers(userIds, event) {
      if (userIds.length) bus.publish({ topics: [...new Set(userIds)].map(userTopic), event });
    },
    revoke(userIds, topic) {
      if (userIds.length) bus.publish({ topics: userIds.map(userTopic), control: { unsubscribe: topic } });
    },
    disconnect(userIds, sessionId) {
      const control = { disconnect: sessionId === undefined ? {} : { sessionId } };
      if (userIds.length) bus.publish({ topics: [...new Set(userIds)].map(userTopic), control });
    },
    registerTopic(prefix, authorize) {
      if (topics.has(prefix)) throw new Error(`topic prefix "${prefix}" is already registered`);
      topics.set(prefix, authorize);
    },
    registerOp(op, handler) {
      if (ops.has(op)) throw new Error(`socket op "${op}" is already registered`);
      ops.set(op, handler);
    },
    onSocketClosed(listener) {
      closedListeners.push(listener);
    },
    registerReplay(source) {
      replay = source;
    },
    async authorizeTopic(userId, topic) {
      if (topic === userTopic(userId)) return true;
      let best = '';
      for (const prefix of topics.keys()) if (topic.startsWith(prefix) && prefix.length > best.length) best = prefix;
      return best ? topics.get(best)!(userId, topic) : false;
    },
    opHandler<K extends FeatureOp>(op: K) {
      return ops.get(op) as OpHandler<K> | undefined;
    },
    async socketClosed(caller) {
      await Promise.all(closedListeners.map((listen) => listen(caller)));
    },
    async close() {
      unsubscribe();
      unGap();
      await bus.close();
    },
  };
}
