import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

/** Fails when axe finds a serious or critical accessibility violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  // A modal or toast still fading in has low contrast for a moment: judge the page once its finite transitions
  // end (spinners never do), waiting at most 2 s of real time (a test may have frozen the page's clock).
  const settled = page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)))
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  await Promise.race([settled.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2000))]);
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) {
    const summary = bad
      .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
      .join('\n');
    throw new Error(`Accessibility violations on ${page.url()}:\n${summary}`);
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
  await watchCsp(context);
  const page = await context.newPage();
  page.on('close', () => void context.close().catch(() => {}));
  return page;
}
