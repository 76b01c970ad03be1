import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { launchBrowser, newPage } from './browser.ts';
import { startServer, type RunningServer } from './server.ts';
import { kb, routeScripts, WEB_DIST } from './web-bundle.ts';

/**
 * The JavaScript the log-in route may send over the wire (KiB): the build's Brotli copies, which the server sends
 * to every browser that accepts Brotli. Issue 25 §7's target, 100 KB; the route is at 99.2 KB, of which React DOM
 * alone is 46 (Mantine 12, React Router 9, TanStack Query 8). Not in it: the signed-in pages' chunk list (in the
 * shell's chunk), zod (with the first schema), the toasts' store (with the first toast), the texts and limits of
 * other pages.
 */
const LOGIN_BUDGET_BYTES = 100 * 1024;
/** The route's lazily loaded page module (app/router.tsx). */
const LOGIN_MODULE = 'src/features/auth/login-page.tsx';

describe('first load of the log-in page (built files)', () => {
  it(`stays within ${kb(LOGIN_BUDGET_BYTES)} of JavaScript over the wire`, () => {
    const scripts = routeScripts(LOGIN_MODULE);
    const total = scripts.reduce((sum, s) => sum + s.wireBytes, 0);
    const lines = scripts
      .sort((a, b) => b.wireBytes - a.wireBytes)
      .map((s) => `  ${kb(s.wireBytes).padStart(9)}  ${s.file} (${kb(s.bytes)}, gzip -9 ${kb(s.gzipBytes)})`);
    console.log(`/login loads ${scripts.length} scripts, ${kb(total)} Brotli:\n${lines.join('\n')}`);
    // The entry alone is not the route: the page's own chunk must be among them.
    expect(scripts.some((s) => s.file.includes('login-page'))).toBe(true);
    expect(total).toBeLessThanOrEqual(LOGIN_BUDGET_BYTES);
  });

  it('every Brotli and gzip copy in the build unpacks to its file as it is now', () => {
    const copies = readdirSync(WEB_DIST, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(br|gz)$/.test(f));
    expect(copies.length).toBeGreaterThan(10);
    for (const copy of copies) {
      const packed = readFileSync(path.join(WEB_DIST, copy));
      const unpacked = copy.endsWith('.br') ? brotliDecompressSync(packed) : gunzipSync(packed);
      expect(unpacked.equals(readFileSync(path.join(WEB_DIST, copy.replace(/\.(br|gz)$/, '')))), copy).toBe(true);
    }
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

  it('receives only the scripts counted from the build, Brotli-compressed, within the same budget', async () => {
    const page = await newPage(browser);
    const received: Array<Promise<{ file: string; encoding: string | null; bodyBytes: number }>> = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname.slice(1);
      received.push(
        (async () => {
          // Chromium's own count of the body bytes that came over the wire (encoded, headers not counted).
          await response.finished();
          const sizes = await response.request().sizes();
          return { file, encoding: await response.headerValue('content-encoding'), bodyBytes: sizes.responseBodySize };
        })(),
      );
    });
    await page.goto(`${server.url}${ROUTES.login}`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: MSG.login.title }).waitFor();
    await page.waitForLoadState('networkidle');
    const scripts = await Promise.all(received);
    const total = scripts.reduce((sum, s) => sum + s.bodyBytes, 0);
    console.log(`Chromium received ${scripts.length} scripts for /login, ${kb(total)} over the wire`);

    const counted = routeScripts(LOGIN_MODULE);
    expect(scripts.map((s) => s.file).sort()).toEqual(counted.map((s) => s.file).sort());
    const compressed = new Set(counted.filter((s) => s.compressed).map((s) => s.file));
    expect(compressed.size).toBeGreaterThan(counted.length / 2);
    for (const s of scripts) if (compressed.has(s.file)) expect(s.encoding, s.file).toBe('br');
    // The figure of the test above is the one the browser sees.
    expect(total).toBe(counted.reduce((sum, s) => sum + s.wireBytes, 0));
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
