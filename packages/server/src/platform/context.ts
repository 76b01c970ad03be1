import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database, Db } from '../db/connect.ts';
import type { Mailer } from './mail.ts';
import type { Storage } from './storage/storage.ts';

/** What every feature gets from the platform. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  storage: Storage;
  log: FastifyBaseLogger;
}
