import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/connect.ts';
import type { Mailer } from './mail.ts';
import type { Realtime } from './realtime/realtime.ts';
import type { Storage } from './storage/storage.ts';

/** What every feature gets from the platform. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  storage: Storage;
  /** Publishes typed events to sockets on every instance (DESIGN.md "Real-time"). */
  realtime: Realtime;
  log: FastifyBaseLogger;
}
