import type { Page } from 'playwright-core';

/** Lets the timers quickRedirects() holds (`{ hold: true }`) run. */
export async function releaseRedirects(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { releaseRedirects: () => void }).releaseRedirects());
}

/** A §9 redirect timer as the page asked for it (quickRedirects). */
export interface QuickRedirect {
  /** The delay the app asked for. */
  ms: number;
  /** The text given to quickRedirects() that was on the screen when the timer was set. */
  shown: string;
  /** The path the page was on when the timer fired (null: it has not fired, or it was cleared). */
  firedOn: string | null;
}

/**
 * Runs the app's 2 s and 3 s timers that are set while `text` (or one of several texts) is on the screen at once
 * instead of after their delay, and records each one: the delay asked for and where the page was when it fired.
 * With the text shown when the timer was set, the delay asked for, and the redirect coming from that timer (it fired
 * on the page showing the text, then the page moved), the screen is known to have stayed the asked-for time on a
 * real clock, without the test waiting it out. Timers set while the text is not shown run as usual (and are not recorded). With
 * `{ hold: true }` the recorded timers wait for releaseRedirects() (an accessibility check of the screen first).
 * Call before the page's first navigation.
 */
export async function quickRedirects(
  page: Page,
  text: string | string[],
  { hold = false }: { hold?: boolean } = {},
): Promise<void> {
  await page.addInitScript(
    ({ shown, holding }: { shown: string[]; holding: boolean }) => {
      const recorded: QuickRedirect[] = [];
      const held: Array<() => void> = [];
      const w = window as unknown as { quickRedirects: QuickRedirect[]; releaseRedirects: () => void };
      w.quickRedirects = recorded;
      w.releaseRedirects = () => held.splice(0).forEach((f) => f());
      const original = window.setTimeout;
      const originalClear = window.clearTimeout;
      // A held timer the app clears (its screen went away) never fires.
      const cleared = new Set<number>();
      window.clearTimeout = ((id?: number) => {
        if (id !== undefined) cleared.add(id);
        originalClear(id);
      }) as typeof clearTimeout;
      window.setTimeout = ((fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        if (ms !== 2000 && ms !== 3000) return original(fn, ms, ...args);
        const onScreen = shown.find((t) => document.body?.innerText.includes(t));
        if (onScreen === undefined) return original(fn, ms, ...args);
        const entry: QuickRedirect = { ms, shown: onScreen, firedOn: null };
        recorded.push(entry);
        const fire = () => {
          entry.firedOn = location.pathname;
          fn(...args);
        };
        if (!holding) return original(fire, 0);
        const id = original(() => undefined, 0);
        held.push(() => original(() => cleared.has(id) || fire(), 0));
        return id;
      }) as typeof setTimeout;
    },
    { shown: [text].flat(), holding: hold },
  );
}

/** The timers quickRedirects() recorded so far, in the order they were set. */
export async function quickRedirected(page: Page): Promise<QuickRedirect[]> {
  return page.evaluate(() => (window as unknown as { quickRedirects: QuickRedirect[] }).quickRedirects);
}
