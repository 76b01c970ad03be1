import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { CSP_NONCE_PLACEHOLDER } from './security-headers.ts';

/** A built web app in miniature: index.html as Vite writes it with `html.cspNonce`, one hashed asset. */
async function tinyDist(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'sb-dist-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><meta property="csp-nonce" nonce="${CSP_NONCE_PLACEHOLDER}">` +
      `<script type="module" src="/assets/app-1234.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script></head>` +
      `<body><div id="root"></div></body></html>`,
  );
  await writeFile(path.join(dir, 'assets', 'app-1234.js'), 'console.log(1);\n');
  return dir;
}

function directives(res: LightMyRequestResponse): Map<string, string[]> {
  const csp = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectHardened(res: LightMyRequestResponse) {
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  const permissions = String(res.headers['permissions-policy']);
  expect(permissions).toContain('microphone=(self)');
  for (const off of ['camera=()', 'geolocation=()', 'payment=()', 'usb=()']) expect(permissions).toContain(off);
  const csp = directives(res);
  expect(csp.get('default-src')).toEqual(["'self'"]);
  expect(csp.get('script-src')).toEqual(["'self'"]);
  expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  expect(csp.get('object-src')).toEqual(["'none'"]);
  expect(csp.get('base-uri')).toEqual(["'self'"]);
  expect(csp.get('form-action')).toEqual(["'self'"]);
  expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
  expect(csp.get('media-src')).toEqual(["'self'", 'blob:']);
  expect(csp.get('connect-src')).toEqual(["'self'", 'ws://localhost:3000']);
  const all = [...csp.values()].flat();
  expect(all).not.toContain("'unsafe-inline'");
  expect(all).not.toContain("'unsafe-eval'");
}

describe('security headers', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    dist = await tinyDist();
    t = await createTestApp({ WEB_DIST: dist });
  });
  afterAll(async () => {
    await t.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('pages get the full set, with a fresh style nonce written into the page and its CSP', async () => {
    const nonces = new Set<string>();
    for (const url of ['/', '/login', '/verify?mode=verifyEmail&oobCode=x', '/index.html']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expectHardened(res);
      const style = directives(res).get('style-src')!;
      expect(style[0]).toBe("'self'");
      const nonce = /^'nonce-([A-Za-z0-9+/=]{24})'$/.exec(style[1] ?? '')?.[1];
      expect(nonce, url).toBeDefined();
      expect(res.body).not.toContain(CSP_NONCE_PLACEHOLDER);
      expect(res.body).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(4);
  });

  it('static assets, API answers and API errors get them too (without a nonce)', async () => {
    const asset = await t.app.inject({ url: '/assets/app-1234.js' });
    const health = await t.app.inject({ url: '/api/health' });
    const unknown = await t.app.inject({ url: '/api/no-such-thing' });
    const refused = await t.app.inject({ url: '/api/auth/session', method: 'DELETE' });
    expect([asset.statusCode, health.statusCode, unknown.statusCode]).toEqual([200, 200, 404]);
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    for (const res of [asset, health, unknown, refused]) {
      expectHardened(res);
      expect(directives(res).get('style-src')).toEqual(["'self'"]);
    }
  });

  it('sends HSTS (and upgrades requests) only when PUBLIC_URL is https', async () => {
    expect((await t.app.inject({ url: '/' })).headers['strict-transport-security']).toBeUndefined();
    expect(directives(await t.app.inject({ url: '/' })).has('upgrade-insecure-requests')).toBe(false);
    const secure = await createTestApp({ WEB_DIST: dist, PUBLIC_URL: 'https://study.example.edu' });
    try {
      for (const url of ['/', '/api/health']) {
        const res = await secure.app.inject({ url });
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        expect(directives(res).get('connect-src')).toEqual(["'self'", 'wss://study.example.edu']);
        expect(directives(res).has('upgrade-insecure-requests')).toBe(true);
      }
    } finally {
      await secure.close();
    }
  });
});
