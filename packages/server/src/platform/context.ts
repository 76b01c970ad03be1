import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/connect.ts';
import type { DiskGuard } from './disk-guard.ts';
import type { Lifecycle } from './lifecycle.ts';
import type { Mailer } from './mail.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { Registry } from './registry.ts';
import type { SessionStore } from './session.ts';
import type { Storage } from './storage/storage.ts';

/** What every feature gets from the platform. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  storage: Storage;
  /** Publishes typed events to sockets on every instance (docs/architecture.md "Real-time"). */
  realtime: Realtime;
  log: FastifyBaseLogger;
  /** Prometheus metrics of this app (platform/metrics); features feed counters and register gauges. */
  metrics: Metrics;
  /** `lifecycle.ready`: whether this instance takes traffic (readiness probe); false on SIGTERM. */
  lifecycle: Lifecycle;
  /** Refuses writes while DATA_DIR is short of room (platform/disk-guard.ts). */
  diskGuard: DiskGuard;
  /** Whose session a cookie names (the accounts feature's store). */
  sessions: SessionStore;
  /** Extension points the features fill as they start: upload targets, file access rules, cleanups. */
  registry: Registry;
}
