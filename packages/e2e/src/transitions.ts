import type { Page } from 'playwright-core';

/**
 * Resolves once the page's enter and exit transitions have ended, instead of a fixed sleep: a Mantine modal or drawer
 * mounts transparent and starts fading in on the next animation frame, so two frames pass first (its CSS transition
 * then exists), then the page waits until no finite animation runs (spinners never end and are not waited for).
 * Not for a page whose clock a test has frozen (its animation frames do not come).
 */
export async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || !Number.isFinite(Number(a.effect?.getComputedTiming().endTime))),
  );
}
