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
