import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { Listeners, type Envelope, type EventBus } from './event-bus.ts';
import { nextPayloads, PayloadDecoder } from './notify-codec.ts';

export const DEFAULT_CHANNEL = 'studybuddy_realtime';
/** Envelopes kept while the connection is down (older ones are dropped; clients resync after the gap). */
const MAX_QUEUE = 20_000;
/**
 * Reconnect attempts while the database is away: after 250 ms, then 500 ms, then once a second (issue 31: with the
 * delay doubling to 10 s, a database back after a few seconds waited up to that long for the bus, and every
 * socket's resync with it). One connection attempt a second per instance costs the database nothing.
 */
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 1000;
/** How often an instance checks whether it is the only one listening (then it sends no NOTIFY at all). */
const PEERS_CHECK_MS = 2000;
/** How long a joining instance waits for the others to answer its hello before it serves anyone. */
const JOIN_WAIT_MS = 5000;

export interface PgBusOptions {
  databaseUrl: string;
  log: Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;
  channel?: string;
  /** How often to count the instances on the channel (PEERS_CHECK_MS; tests use less). */
  peersCheckMs?: number;
}

/**
 * Fans envelopes out to every instance on one PostgreSQL database with LISTEN/NOTIFY over one dedicated
 * connection. Own envelopes are delivered locally at once (and skipped when they come back); envelopes queued
 * while the connection is down are sent after it returns, and listeners hear a gap so sockets resync.
 *
 * An instance alone on the channel sends nothing (a NOTIFY nobody hears cost a fifth of the database's CPU in the
 * chat benchmark). It learns it is alone by counting the bus connections (their application_name) every
 * PEERS_CHECK_MS; it learns it is not the moment another instance says hello. A joining instance, once it listens,
 * says hello and waits for every instance it counted to answer before it serves anyone (`createPgBus` resolves,
 * or after a reconnect the gap is reported): from an instance's answer on, that instance's envelopes reach it.
 */
export async function createPgBus(opts: PgBusOptions): Promise<EventBus> {
  const channel = opts.channel ?? DEFAULT_CHANNEL;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name: ${channel}`);
  const origin = randomUUID();
  const decoder = new PayloadDecoder(origin);
  const listeners = new Listeners<[Envelope]>();
  const gaps = new Listeners<[]>();
  const onError = (err: unknown) => opts.log.error({ err }, 'realtime listener failed');
  const peers = peerWatch(origin, channel);
  const queue: Envelope[] = [];
  let client: pg.Client | null = null;
  let sending = false;
  let closed = false;
  let retryMs = RETRY_FIRST_MS;
  let reconnectTimer: NodeJS.Timeout | undefined;

  const deliver = (payload: string) => {
    if (peers.heard(payload, client)) return;
    let envelopes: Envelope[];
    try {
      envelopes = decoder.decode(payload);
    } catch (err) {
      opts.log.warn({ err }, 'realtime: undecodable notification ignored');
      return;
    }
    for (const envelope of envelopes) listeners.emit(onError, envelope);
  };

  async function connect(): Promise<void> {
    const c = await listen(opts, channel, deliver, lost);
    client = c;
    retryMs = RETRY_FIRST_MS;
    void pump();
    await peers.join(c);
  }

  function lost(c: pg.Client) {
    if (client !== c) return;
    client = null;
    opts.log.warn('realtime: bus connection lost; reconnecting');
    c.removeAllListeners('notification');
    void c.end().catch(() => undefined);
    if (!closed) scheduleReconnect();
  }

  function scheduleReconnect() {
    if (reconnectTimer || closed) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      connect().then(
        () => {
          opts.log.info('realtime: bus reconnected');
          gaps.emit(onError);
        },
        (err: unknown) => {
          opts.log.warn({ err }, 'realtime: bus reconnect failed');
          retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
          scheduleReconnect();
        },
      );
    }, retryMs);
  }

  async function pump(): Promise<void> {
    if (sending) return;
    sending = true;
    try {
      while (queue.length && client) {
        const c = client;
        const window = queue.slice(0, 500);
        const before = window.length;
        const payloads = nextStatement(origin, window);
        try {
          // One statement, so one round trip and one transaction, for all of them (they arrive together and in
          // order) instead of one per payload: a busy instance sent a NOTIFY per ~15 envelopes.
          await c.query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [channel, payloads]);
          queue.splice(0, before - window.length);
        } catch (err) {
          opts.log.warn({ err }, 'realtime: notify failed; will retry after reconnect');
          lost(c);
        }
      }
    } finally {
      sending = false;
    }
  }

  /**
   * The pump starts once this turn of the event loop is over, so what is published in one turn (a written
   * batch's messages and unread counts) leaves in one statement rather than the first alone.
   */
  let pumpScheduled = false;
  function schedulePump() {
    if (pumpScheduled) return;
    pumpScheduled = true;
    setImmediate(() => {
      pumpScheduled = false;
      void pump();
    });
  }

  await connect();
  peers.start(() => client, opts.peersCheckMs ?? PEERS_CHECK_MS);

  return {
    kind: 'postgres',
    publish(envelope) {
      if (closed) return;
      listeners.emit(onError, envelope);
      if (peers.alone && client) return;
      queue.push(envelope);
      // Only trimmed while disconnected, so the pump never loses its place.
      if (!client && queue.length > MAX_QUEUE) queue.splice(0, queue.length - MAX_QUEUE);
      schedulePump();
    },
    subscribe: (fn) => listeners.add(fn),
    onGap: (fn) => gaps.add(fn),
    async close() {
      // Let queued envelopes go out first (bounded), then leave.
      const deadline = Date.now() + 1000;
      while ((queue.length || sending) && client && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 5));
      }
      closed = true;
      peers.stop();
      clearTimeout(reconnectTimer);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/**
 * The payloads of one statement, consumed from the front of `window`. Never two identical ones: PostgreSQL
 * delivers identical payloads of one transaction only once.
 */
function nextStatement(origin: string, window: Envelope[]): string[] {
  const payloads: string[] = [];
  const seen = new Set<string>();
  while (window.length) {
    const rest = window.slice();
    const next = nextPayloads(origin, rest);
    if (payloads.length && next.some((p) => seen.has(p))) break;
    for (const p of next) seen.add(p);
    payloads.push(...next);
    window.splice(0, window.length - rest.length);
  }
  return payloads;
}

/** A connection LISTENing on `channel`: its notifications go to `deliver`, its loss (error or end) to `lost`. */
async function listen(
  opts: PgBusOptions,
  channel: string,
  deliver: (payload: string) => void,
  lost: (c: pg.Client) => void,
): Promise<pg.Client> {
  const c = new pg.Client({
    connectionString: opts.databaseUrl,
    keepAlive: true,
    application_name: `realtime:${channel}`,
  });
  c.on('notification', (n) => {
    if (n.channel === channel && n.payload) deliver(n.payload);
  });
  c.on('error', (err) => {
    opts.log.warn({ err }, 'realtime: bus connection error');
    lost(c);
  });
  c.on('end', () => lost(c));
  try {
    await c.connect();
    await c.query(`LISTEN ${channel}`);
  } catch (err) {
    // A database still starting up may take the connection and refuse the LISTEN: not left open.
    void c.end().catch(() => undefined);
    throw err;
  }
  return c;
}

/**
 * Who else listens on the channel: `alone` while this instance is the only bus connection counted, false from the
 * moment another instance says hello (a count that started before the hello does not make it alone again).
 */
function peerWatch(origin: string, channel: string) {
  const appName = `realtime:${channel}`;
  let alone = false;
  let hellos = 0;
  let timer: NodeJS.Timeout | undefined;
  let joining: { answered: Set<string>; needed: number; done: () => void } | null = null;

  const say = (c: pg.Client, text: string) =>
    c.query('SELECT pg_notify($1, $2)', [channel, `${origin}|${text}`]).catch(() => undefined);

  /** Counts the bus connections (this one too) and updates `alone`, unless a hello came in meanwhile. */
  async function check(c: pg.Client): Promise<number> {
    const before = hellos;
    const { rows } = await c.query<{ n: number }>(
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1',
      [appName],
    );
    const n = rows[0]?.n ?? 0;
    if (hellos === before) alone = n <= 1;
    return n;
  }

  return {
    get alone() {
      return alone;
    },

    /** Says hello on a new connection and waits (bounded) for the answer of every other instance counted. */
    async join(c: pg.Client): Promise<void> {
      const others = (await check(c)) - 1;
      if (others <= 0) return;
      await new Promise<void>((resolve) => {
        const timeout = setTimeout(resolve, JOIN_WAIT_MS);
        joining = {
          answered: new Set(),
          needed: others,
          done: () => {
            clearTimeout(timeout);
            resolve();
          },
        };
        void say(c, 'hello');
      });
      joining = null;
    },

    /** True when the payload was a hello or an answer to one (handled here), false for envelopes. */
    heard(payload: string, c: pg.Client | null): boolean {
      const bar = payload.indexOf('|');
      const from = payload.slice(0, bar);
      const text = payload.slice(bar + 1);
      if (text === 'hello') {
        if (from !== origin) {
          hellos += 1;
          alone = false;
          if (c) void say(c, `welcome:${from}`);
        }
        return true;
      }
      if (!text.startsWith('welcome:')) return false;
      if (text === `welcome:${origin}` && joining) {
        joining.answered.add(from);
        if (joining.answered.size >= joining.needed) joining.done();
      }
      return true;
    },

    start(current: () => pg.Client | null, everyMs: number) {
      timer = setInterval(() => {
        const c = current();
        if (c) void check(c).catch(() => undefined);
      }, everyMs);
      timer.unref();
    },

    stop() {
      clearInterval(timer);
    },
  };
}
