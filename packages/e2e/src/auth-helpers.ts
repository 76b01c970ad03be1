import type { Page } from 'playwright-core';

/**
 * Holds the app's 2 s and 3 s redirect timers (requirements §9) until releaseRedirects(), so a screen that is about
 * to redirect stays put for an accessibility check. Call before the page's first navigation.
 */
export async function holdRedirects(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const held: Array<() => void> = [];
    const original = window.setTimeout;
    window.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) =>
      ms === 2000 || ms === 3000
        ? held.push(() => original(fn, ms, ...args))
        : original(fn, ms, ...args)) as typeof setTimeout;
    (window as unknown as { releaseRedirects: () => void }).releaseRedirects = () => held.splice(0).forEach((f) => f());
  });
}

export async function releaseRedirects(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { releaseRedirects: () => void }).releaseRedirects());
}
