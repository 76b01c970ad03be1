import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/connect.ts';
import { openSockets, realtimeInstances, users } from '../../db/schema.ts';
import { Gates } from '../fair-share.ts';

export interface PresenceOptions {
  /** How often this instance says it is alive. */
  heartbeatMs?: number;
  /** An instance silent this long is gone: its sockets stop counting and are removed. */
  staleMs?: number;
}

/** Open sockets per student across every instance (QUOTA_SOCKETS), kept in realtime_instances and open_sockets. */
export interface SocketPresence {
  readonly instanceId: string;
  /** Records one more socket of the user and answers its id, or null when they have `limit` open already. */
  admit(userId: string, limit: number): Promise<string | null>;
  /** The socket closed. */
  release(socketId: string): Promise<void>;
  start(): Promise<void>;
  /** Removes this instance and with it every socket it recorded (before the database closes). */
  stop(): Promise<void>;
}

const isForeignKeyViolation = (err: unknown) =>
  (err as { code?: string }).code === '23503' || (err as { cause?: { code?: string } }).cause?.code === '23503';

/**
 * Each instance has a row it renews every heartbeat; each open socket a row under its instance. The count of a
 * student's sockets joins live instances only, so the sockets of a crashed instance stop counting once it is
 * silent for `staleMs`, and any instance then deletes it (its sockets with it). Counting and recording happen
 * in one transaction that holds the student's user row: concurrent upgrades on several instances queue there.
 */
export function createSocketPresence(
  database: Database,
  log: Pick<FastifyBaseLogger, 'warn'>,
  options: PresenceOptions = {},
): SocketPresence {
  const db = database.db;
  const heartbeatMs = options.heartbeatMs ?? 10_000;
  const staleMs = options.staleMs ?? 45_000;
  const instanceId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  /** This instance's open sockets, to record them again if its row was ever dropped (a long stall). */
  const mine = new Map<string, string>();
  /** How many of `mine` each student has: a student already at the limit here is refused without a query. */
  const mineOf = new Map<string, number>();
  const count = (userId: string, by: number) => {
    const n = (mineOf.get(userId) ?? 0) + by;
    if (n > 0) mineOf.set(userId, n);
    else mineOf.delete(userId);
  };
  // One student's upgrades take turns on this instance (they would queue on the user row anyway), so a burst of
  // a hundred costs one transaction at a time and the ones past the limit none at all.
  const admissions = new Gates();
  let timer: NodeJS.Timeout | undefined;
  const stale = sql`now() - ${staleMs} * interval '1 millisecond'`;

  async function register() {
    await db
      .insert(realtimeInstances)
      .values({ id: instanceId })
      .onConflictDoUpdate({ target: realtimeInstances.id, set: { seenAt: sql`now()` } });
  }

  async function beat() {
    const alive = await db
      .update(realtimeInstances)
      .set({ seenAt: sql`now()` })
      .where(eq(realtimeInstances.id, instanceId))
      .returning({ id: realtimeInstances.id });
    if (!alive.length) {
      // Silent too long (the process stalled) and removed by another instance: back, with our sockets.
      await register();
      for (const [id, userId] of mine) {
        await db.insert(openSockets).values({ id, userId, instanceId }).onConflictDoNothing();
      }
    }
    await db.delete(realtimeInstances).where(lt(realtimeInstances.seenAt, stale));
  }

  async function record(userId: string, limit: number): Promise<string | null> {
    return db.transaction(async (tx) => {
      await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
      const [row] = await tx
        .select({ n: sql<string>`count(*)` })
        .from(openSockets)
        .innerJoin(realtimeInstances, eq(realtimeInstances.id, openSockets.instanceId))
        .where(and(eq(openSockets.userId, userId), gt(realtimeInstances.seenAt, stale)));
      if (Number(row?.n ?? 0) >= limit) return null;
      const id = randomUUID();
      await tx.insert(openSockets).values({ id, userId, instanceId });
      return id;
    });
  }

  return {
    instanceId,
    async admit(userId, limit) {
      if ((mineOf.get(userId) ?? 0) >= limit) return null;
      if (!(await admissions.acquire(userId, 1, 1000).granted)) return null;
      let id: string | null = null;
      try {
        if ((mineOf.get(userId) ?? 0) >= limit) return null;
        try {
          id = await record(userId, limit);
        } catch (err) {
          if (!isForeignKeyViolation(err)) throw err;
          // This instance's row was removed meanwhile (see beat): register again and retry once.
          await register();
          id = await record(userId, limit);
        }
      } finally {
        admissions.release(userId);
      }
      if (id) {
        mine.set(id, userId);
        count(userId, 1);
      }
      return id;
    },
    async release(socketId) {
      const userId = mine.get(socketId);
      if (userId !== undefined && mine.delete(socketId)) count(userId, -1);
      await db.delete(openSockets).where(eq(openSockets.id, socketId));
    },
    async start() {
      // PGlite belongs to one process: instances recorded before are this server's earlier lives.
      if (database.kind === 'pglite') await db.delete(realtimeInstances);
      await register();
      timer = setInterval(
        () => void beat().catch((err) => log.warn({ err }, 'realtime: presence heartbeat failed')),
        heartbeatMs,
      );
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      mine.clear();
      mineOf.clear();
      await db.delete(realtimeInstances).where(eq(realtimeInstances.id, instanceId));
    },
  };
}
