import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import type { TestApp } from './test-app.ts';

export interface TwoInstances {
  /** The second instance: its own app and data dir on the first one's PostgreSQL database. */
  two: App;
  /** Where each listens: [first, second]. */
  urls: [string, string];
  /** Closes both (the second first) and removes the second's data dir. */
  close(): Promise<void>;
}

/** A second instance beside the test app `one` on its PostgreSQL database, both listening on free ports. */
export async function secondInstance(one: TestApp): Promise<TwoInstances> {
  const twoDir = await mkdtemp(path.join(tmpdir(), 'sb-test-two-'));
  const two = await buildApp(
    loadConfig({
      DATA_DIR: twoDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      DATABASE_URL: one.config.databaseUrl!,
    }),
    { logger: false },
  );
  const urls: [string, string] = [
    await one.app.listen({ port: 0, host: '127.0.0.1' }),
    await two.listen({ port: 0, host: '127.0.0.1' }),
  ];
  return {
    two,
    urls,
    async close() {
      await two.close();
      await one.close();
      await rm(twoDir, { recursive: true, force: true });
    },
  };
}

/** Where a test's two sides run: two instances, or one serving as both. */
export interface OneOrTwoInstances {
  /** The second instance, when there is one. */
  two: App | undefined;
  /** Where each side listens: [first, second] (the same address on one instance). */
  urls: [string, string];
  /** Closes what runs (the second instance, its data dir, the test app). */
  close(): Promise<void>;
}

/**
 * A second instance when the test app is on PostgreSQL (the bus is LISTEN/NOTIFY); on PGlite, which one process
 * holds, the test app serves both sides (the in-memory bus).
 */
export async function oneOrTwoInstances(one: TestApp): Promise<OneOrTwoInstances> {
  if (one.config.databaseUrl) return secondInstance(one);
  const url = await one.app.listen({ port: 0, host: '127.0.0.1' });
  return { two: undefined, urls: [url, url], close: () => one.close() };
}
