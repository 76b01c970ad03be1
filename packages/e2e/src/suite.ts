import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';

export interface ServerAndBrowser {
  server: RunningServer;
  browser: Browser;
}

/**
 * A server (started with `startServer`'s arguments) and Chromium for the describe block this is called in, both
 * stopped after it; the fields are set before the block's first test.
 */
export function serverAndBrowser(...args: Parameters<typeof startServer>): ServerAndBrowser {
  const running = {} as ServerAndBrowser;
  beforeAll(async () => {
    [running.server, running.browser] = await Promise.all([startServer(...args), launchBrowser()]);
  });
  afterAll(async () => {
    await running.browser?.close();
    await running.server?.stop();
  });
  return running;
}
