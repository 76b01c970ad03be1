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

interface FiredRedirect {
  /** Milliseconds from the text being on the screen to the redirect (measured in the page, not by the test runner). */
  shownFor: number;
}

/**
 * Records, in the page, how long `text` had been on the screen when a timer of a second or more fired. The test
 * runner on a busy machine sees the text late, so only the page's own clock can show the redirect waited.
 * Call before the page's first navigation.
 */
export async function recordRedirects(page: Page, text: string): Promise<void> {
  await page.addInitScript((shown: string) => {
    const fired: FiredRedirect[] = [];
    (window as unknown as { firedRedirects: FiredRedirect[] }).firedRedirects = fired;
    let shownAt: number | undefined;
    const look = () => {
      if (shownAt === undefined && document.body?.innerText.includes(shown)) shownAt = performance.now();
    };
    new MutationObserver(look).observe(document, { subtree: true, childList: true, characterData: true });
    const original = window.setTimeout;
    window.setTimeout = ((fn: () => void, ms?: number, ...args: unknown[]) =>
      original(
        () => {
          if ((ms ?? 0) >= 1000) {
            look();
            fired.push({ shownFor: shownAt === undefined ? -1 : performance.now() - shownAt });
          }
          fn();
        },
        ms,
        ...args,
      )) as typeof setTimeout;
  }, text);
}

/** How long the text given to recordRedirects() had been shown when the first long timer fired (-1: none fired). */
export async function shownBeforeRedirect(page: Page): Promise<number> {
  const fired = await page.evaluate(() => (window as unknown as { firedRedirects: FiredRedirect[] }).firedRedirects);
  return fired.find((f) => f.shownFor >= 0)?.shownFor ?? -1;
}
