import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { kb, routeScripts, WEB_DIST } from './web-bundle.ts';

/** Issue 14 §9: what the log-in route may load, gzipped (KiB, as gzip -9 gives it). */
const LOGIN_BUDGET_BYTES = 120 * 1024;
/** The route's lazily loaded page module (app/router.tsx). */
const LOGIN_MODULE = 'src/features/auth/login-page.tsx';

describe('first load of the log-in page (built files)', () => {
  it(`stays within ${kb(LOGIN_BUDGET_BYTES)} of gzipped JavaScript`, () => {
    const scripts = routeScripts(LOGIN_MODULE);
    const total = scripts.reduce((sum, s) => sum + s.gzipBytes, 0);
    const lines = scripts
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .map((s) => `  ${kb(s.gzipBytes).padStart(9)}  ${s.file}`);
    console.log(`/login loads ${scripts.length} scripts, ${kb(total)} gzipped:\n${lines.join('\n')}`);
    // The entry alone is not the route: the page's own chunk must be among them.
    expect(scripts.some((s) => s.file.includes('login-page'))).toBe(true);
    expect(total).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
  });

  it('index.html has no inline script (the CSP allows only our own script files)', () => {
    const html = readFileSync(path.join(WEB_DIST, 'index.html'), 'utf8');
    const scripts = html.match(/<script\b[^>]*>[\s\S]*?<\/script>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) {
      expect(tag).toMatch(/\ssrc="\/assets\//);
      expect(tag).toMatch(/><\/script>$/);
    }
  });
});

describe('first load of the log-in page (Chromium)', () => {
  let server: RunningServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('requests only the scripts counted from the build, within the same budget', async () => {
    const page = await newPage(browser);
    const requested = new Map<string, number>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname.slice(1);
      // Sized from the served file (the server sends it uncompressed; a proxy gzips it).
      requested.set(file, gzipSync(readFileSync(path.join(WEB_DIST, file)), { level: 9 }).length);
    });
    await page.goto(`${server.url}${ROUTES.login}`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: MSG.login.title }).waitFor();
    await page.waitForLoadState('networkidle');
    const total = [...requested.values()].reduce((a, b) => a + b, 0);
    console.log(`Chromium fetched ${requested.size} scripts for /login, ${kb(total)} gzipped`);

    const counted = routeScripts(LOGIN_MODULE).map((s) => s.file);
    expect([...requested.keys()].sort()).toEqual(counted.sort());
    expect(total).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
    await page.close();
  });

  it("a page whose chunk fails to load shows the Error box and a retry link, and the app's other pages still work", async () => {
    const page = await newPage(browser);
    await page.goto(`${server.url}${ROUTES.login}`);
    await page.getByRole('heading', { name: MSG.login.title }).waitFor();
    // As after a redeploy: the Terms page's chunk is gone.
    await page.route('**/assets/terms-page-*.js', (route) => route.fulfill({ status: 404, body: '' }));
    await page.evaluate((to) => {
      window.history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, ROUTES.terms);
    await page.getByRole('alert').filter({ hasText: MSG.loading.error }).waitFor();
    await page.getByRole('button', { name: MSG.loading.retry }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: MSG.login.title }).waitFor();
    await page.close();
  });
});
