import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import axe from 'axe-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Chromium's headless shell (Debian's chromium-headless-shell: the headless mode Playwright itself uses) runs the
 * same Blink and V8 without the full browser's UI processes: a journey took 10-25 % less CPU in it (issue 32). Its one
 * gap is the notification service, so the push journey asks for the full browser. Without the shell, every journey
 * runs in the full browser.
 */
const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Headless Chromium preloads the omnibox's two WebUI popups in renderers of their own, for a window nobody sees:
 * a fifth of a journey's browser CPU (issue 32). Chromium keeps only the last `--disable-features`, and Playwright
 * passes its own list first, so ours repeats Playwright's (its chromiumSwitches.js; platform.e2e.ts fails when
 * Playwright's list gains a feature ours lacks) and adds the popups.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AcceptCHFrame',
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'DialMediaRouteProvider',
  'GlobalMediaControls',
  'HttpsUpgrades',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'Translate',
  'AutoDeElevate',
  'RenderDocument',
];
const DISABLED_FEATURES = [...PLAYWRIGHT_DISABLED_FEATURES, 'WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/** `notifications`: the full browser, which shows a service worker's notifications (the headless shell does not). */
export async function launchBrowser(extraArgs: string[] = [], { notifications = false } = {}): Promise<Browser> {
  const executablePath = !notifications && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM;
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/**
 * A modal or toast still fading in has low contrast for a moment, and so has a page changing its colours: the page
 * is judged once its finite transitions end (spinners never do), waiting at most 2 s of real time (a test may have
 * frozen the page's clock).
 */
async function settled(page: Page): Promise<void> {
  const done = page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await Promise.race([done.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
}

type Scheme = 'light' | 'dark';

/** The scheme the page shows (Mantine's attribute on <html>), or null before the app has set one. */
const shownScheme = (page: Page) =>
  page.evaluate(() => document.documentElement.getAttribute('data-mantine-color-scheme') as Scheme | null);

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  targets: string[];
}

/**
 * axe-core's violations on the page as it is now (`rules`: only those; `within`: only that part). axe is put in
 * the page once per document and run there: @axe-core/playwright injected it twice per check and finished each
 * check in a new blank page (a renderer of its own), which cost more than the check (issue 32).
 */
async function axeViolations(page: Page, rules?: string[], within?: string): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ rules, within }) => {
      const run = (window as unknown as { axe: typeof axe }).axe;
      const { violations } = await run.run(within ? { include: [within] } : document, {
        resultTypes: ['violations'],
        ...(rules ? { runOnly: { type: 'rule', values: rules } } : {}),
      });
      return violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.map((n) => n.target.join(' ')),
      }));
    },
    { rules, within },
  );
}

async function seriousViolationsOnce(page: Page, rules?: string[], within?: string): Promise<string[]> {
  return (await axeViolations(page, rules, within))
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.targets.join('\n  ')}`);
}

/**
 * A toast can start fading out after the page settled and while axe reads it (its text then has low contrast for a
 * moment): after a first look finds violations, the page settles again and a second look is the verdict.
 */
async function seriousViolations(page: Page, rules?: string[], within?: string): Promise<string[]> {
  const first = await seriousViolationsOnce(page, rules, within);
  if (!first.length) return first;
  await settled(page);
  return seriousViolationsOnce(page, rules, within);
}

/**
 * Fails when axe finds a serious or critical accessibility violation on the page as it is now, or a colour contrast
 * one in the other colour scheme (issue 30: every page readable in both): the system setting is switched with
 * `emulateMedia`, the app follows it, and it is switched back. A page whose student chose Light or Dark follows no
 * system setting: it is judged in its own scheme only. `otherScheme: false` judges it in its own scheme only too:
 * for a screen the journey has just judged in both, seen again at another width (the schemes' colours do not
 * depend on the width; what the layout shows does, and that is judged in full). `within` (a CSS selector) judges only
 * that part of the page, e.g. `'[role="dialog"]'` for a modal whose page behind it (inert) a journey has judged
 * already: axe on a page with a long list takes seconds a scan on a busy machine.
 */
export async function expectAccessible(
  page: Page,
  { otherScheme = true, within }: { otherScheme?: boolean; within?: string } = {},
): Promise<void> {
  await settled(page);
  const bad = await seriousViolations(page, undefined, within);
  if (bad.length) throw new Error(`Accessibility violations on ${page.url()}:\n${bad.join('\n')}`);
  if (!otherScheme) return;

  const shown = await shownScheme(page);
  const followsSystem = await page.evaluate(() => {
    try {
      const chosen = localStorage.getItem('studybuddy-color-scheme');
      return chosen !== 'light' && chosen !== 'dark';
    } catch {
      return true; // no storage here: nothing was chosen
    }
  });
  if (!shown || !followsSystem) return;
  const other: Scheme = shown === 'light' ? 'dark' : 'light';
  await page.emulateMedia({ colorScheme: other });
  try {
    await page.waitForFunction((s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s, other);
    await settled(page);
    const contrast = await seriousViolations(page, ['color-contrast'], within);
    if (contrast.length) {
      throw new Error(`Colour contrast violations in the ${other} scheme on ${page.url()}:\n${contrast.join('\n')}`);
    }
  } finally {
    await page.emulateMedia({ colorScheme: shown });
    await page.waitForFunction((s) => document.documentElement.getAttribute('data-mantine-color-scheme') === s, shown);
  }
}

/** What Chromium says when the Content-Security-Policy (or nosniff) blocks something. */
const CSP_REPORT = /Content[- ]Security[- ]Policy|Refused to/i;
const violations: string[] = [];

/** The CSP violations seen since the last call; csp-setup.ts fails the test when there are any. */
export function takeCspViolations(): string[] {
  return violations.splice(0);
}

/** Records every CSP violation in the context's pages: console reports, page errors, and the DOM event. */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(
        `Content Security Policy violation: ${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}` +
          ` (${e.sourceFile}:${e.lineNumber}) ${e.sample}`,
      );
    });
  });
  context.on('console', (message) => {
    if (CSP_REPORT.test(message.text())) violations.push(`${message.page()?.url() ?? '?'}: ${message.text()}`);
  });
  context.on('weberror', (webError) => {
    const error = webError.error();
    if (error.name === 'EvalError' || CSP_REPORT.test(error.message)) {
      violations.push(`${webError.page()?.url() ?? '?'}: ${error.name}: ${error.message}`);
    }
  });
}

/**
 * A page in its own context (own cookies; axe needs pages made this way), watched for CSP violations. Service
 * workers are blocked unless asked for (`serviceWorkers: 'allow'`, pwa.e2e.ts): requests a service worker answers
 * from its cache would slip past `page.route()`, which many journeys use to hold or fail a request.
 */
export async function newPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
  const context = await browser.newContext({ serviceWorkers: 'block', ...options });
  // Every wait is for a state; its ceiling leaves room for a loaded 2-core machine (a page took over 30 s to show
  // its navigation at load 25) and stays inside the test's own limit.
  context.setDefaultTimeout(60_000);
  await watchCsp(context);
  const page = await context.newPage();
  page.on('close', () => void context.close().catch(() => {}));
  return page;
}

/**
 * Full-page pictures at 1280 and 375 pixels wide, `<dir>/<name>-<width>.png`, for a journey whose screenshots variable
 * names `dir` (nothing when it is unset). The shell's navigation slides away below 768 px: each picture is taken once
 * the page's animations have ended. The page is left 1280 pixels wide.
 */
export async function screenshotWidths(page: Page, dir: string | undefined, name: string): Promise<void> {
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'));
    await page.screenshot({ path: path.join(dir, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}
