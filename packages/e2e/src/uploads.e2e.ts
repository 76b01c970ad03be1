import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { expectAccessible, launchBrowser, newPage } from './browser.ts';
import { chooseFiles, logIn, makeImage } from './profile-helpers.ts';
import { startServer, type RunningServer } from './server.ts';
import { startTcpProxy, type SeenRequest, type TcpProxy } from './tcp-proxy.ts';

const USER = 'uploader@g.ucla.edu';
const sum = (rs: SeenRequest[]) => rs.reduce((n, r) => n + r.bodyBytes, 0);

/** Resumable uploads of the real web client (lib/upload.ts) in Chromium, through a proxy the test controls. */
describe('resumable uploads in Chromium', () => {
  let server: RunningServer;
  let browser: Browser;
  let proxy: TcpProxy;
  let page: Page;
  let big: Buffer;
  beforeAll(async () => {
    [server, browser] = await Promise.all([
      startServer({ RATE_LIMITS: 'false' }, [{ email: USER, name: 'Up Loader' }]),
      launchBrowser(),
    ]);
    // Starting the server and Chromium can take long on a busy machine.
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async () => {
    await page?.close();
    await proxy?.close();
  });

  /** A fresh proxy and page on the profile's edit mode; `big` is a 5 MB picture (noise does not compress). */
  async function open() {
    proxy = await startTcpProxy(Number(new URL(server.url).port));
    page = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    await logIn(page, proxy.url, USER);
    await page.goto(`${proxy.url}/profile`);
    await page.getByRole('button', { name: MSG.profile.editProfile }).click();
    big ??= await makeImage(page, { width: 1400, height: 1250, type: 'image/png', noise: true });
    expect(big.length).toBeGreaterThan(5_000_000);
  }
  const removeImages = async () => {
    for (let n = await page.getByRole('img', { name: /^Additional image/ }).count(); n > 0; n--) {
      await page.getByRole('button', { name: `${MSG.profile.removeImage} ${n}` }).click();
    }
  };

  it('survives a connection cut halfway through a 5 MB upload and finishes without re-sending the first half', async () => {
    await open();
    proxy.cutPatchesAt(Math.floor(big.length * 0.55));
    await chooseFiles(page, MSG.profile.addImages, [{ name: 'big.png', mimeType: 'image/png', buffer: big }]);
    const thumb = page.getByRole('img', { name: 'Additional image 1' });
    await thumb.waitFor({ timeout: 60_000 });
    expect(await thumb.getAttribute('src')).toMatch(/^\/api\/files\/users\/[^/]+\/profile\/[0-9a-f]{64}\.jpg$/);

    const requests = proxy.requests.filter((r) => r.path.startsWith('/api/resumable') && !r.failed);
    const cut = requests.findIndex((r) => r.cut);
    expect(cut).toBeGreaterThan(0);
    const before = requests.slice(0, cut + 1).filter((r) => r.method === 'PATCH');
    const sentBeforeCut = sum(before);
    expect(sentBeforeCut).toBe(Math.floor(big.length * 0.55));
    // Chunks doubled from 262144 bytes before the cut.
    expect(before.slice(0, 3).map((r) => Number(r.headers['content-length']))).toEqual([
      LIMITS.chunkStartBytes,
      LIMITS.chunkStartBytes * 2,
      LIMITS.chunkStartBytes * 4,
    ]);
    // After the cut the client asked the server where to go on (HEAD): the server had kept every byte that
    // arrived, and the client sent only the rest. (Chromium may first replay the interrupted chunk once on its
    // own, at the chunk's old offset; the server refuses that with 409 and stores none of it.)
    const head = requests.findIndex((r, i) => i > cut && r.method === 'HEAD');
    expect(head).toBeGreaterThan(cut);
    for (const replay of requests.slice(cut + 1, head)) {
      expect(replay.headers['upload-offset']).toBe(requests[cut]!.headers['upload-offset']);
    }
    const after = requests.slice(head).filter((r) => r.method === 'PATCH');
    const resumedAt = Number(after[0]!.headers['upload-offset']);
    expect(resumedAt).toBeGreaterThan(big.length / 2);
    expect(resumedAt).toBeLessThanOrEqual(sentBeforeCut);
    expect(sum(after)).toBe(big.length - resumedAt);
    await expectAccessible(page);
  });

  it('retries a chunk answered with 503 and completes', async () => {
    await open();
    await removeImages();
    proxy.failNext('PATCH', 503);
    const small = await makeImage(page, { width: 600, height: 600, type: 'image/png', noise: true });
    expect(small.length).toBeGreaterThan(LIMITS.resumableThresholdBytes);
    await chooseFiles(page, MSG.profile.addImages, [{ name: 'retry.png', mimeType: 'image/png', buffer: small }]);
    await page.getByRole('img', { name: 'Additional image 1' }).waitFor({ timeout: 60_000 });
    expect(proxy.requests.filter((r) => r.failed === 503)).toHaveLength(1);
    // The client re-synchronised (HEAD) and then sent exactly the bytes the server did not have.
    const requests = proxy.requests.filter((r) => r.path.startsWith('/api/resumable') && !r.failed);
    const lastHead = requests.findLastIndex((r) => r.method === 'HEAD');
    expect(lastHead).toBeGreaterThan(0);
    const after = requests.slice(lastHead).filter((r) => r.method === 'PATCH');
    expect(sum(after)).toBe(small.length - Number(after[0]!.headers['upload-offset']));
  });

  it('pauses and resumes from where the server stopped, and cancels with nothing left staged', async () => {
    await open();
    await removeImages();
    proxy.throttle(1_500_000);
    await chooseFiles(page, MSG.profile.addImages, [{ name: 'slow.png', mimeType: 'image/png', buffer: big }]);
    const row = page.getByRole('group', { name: 'slow.png' });
    await expect.poll(() => proxy.patchBytes(), { timeout: 30_000 }).toBeGreaterThan(big.length * 0.2);
    await row.getByRole('button', { name: MSG.files.pause }).click();
    await row.getByText(MSG.files.paused).waitFor();
    await expectAccessible(page);
    const atPause = proxy.patchBytes();
    await page.waitForTimeout(1500);
    expect(proxy.patchBytes() - atPause).toBeLessThan(LIMITS.chunkStartBytes);
    const before = proxy.requests.length;

    proxy.throttle(0);
    await row.getByRole('button', { name: MSG.files.resume }).click();
    await page.getByRole('img', { name: 'Additional image 1' }).waitFor({ timeout: 60_000 });
    // Resuming asks the server for its offset and sends only the rest.
    const later = proxy.requests.slice(before);
    expect(later.find((r) => r.path.startsWith('/api/resumable'))?.method).toBe('HEAD');
    const rest = later.filter((r) => r.method === 'PATCH');
    const resumedAt = Number(rest[0]!.headers['upload-offset']);
    expect(resumedAt).toBeGreaterThan(big.length * 0.15);
    expect(resumedAt).toBeLessThanOrEqual(atPause);
    expect(sum(rest)).toBe(big.length - resumedAt);

    // Cancel: the upload is terminated on the server (tus DELETE) and no image is added.
    proxy.throttle(1_000_000);
    const base = proxy.patchBytes();
    await chooseFiles(page, MSG.profile.addImages, [{ name: 'cancel.png', mimeType: 'image/png', buffer: big }]);
    const cancelRow = page.getByRole('group', { name: 'cancel.png' });
    await expect.poll(() => proxy.patchBytes() - base, { timeout: 30_000 }).toBeGreaterThan(big.length * 0.1);
    await cancelRow.getByRole('button', { name: MSG.files.cancel }).click();
    await cancelRow.waitFor({ state: 'hidden' });
    expect(await page.getByRole('img', { name: /^Additional image/ }).count()).toBe(1);
    await expect.poll(() => proxy.requests.some((r) => r.method === 'DELETE')).toBe(true);
    const deleted = proxy.requests.find((r) => r.method === 'DELETE')!;
    const id = deleted.path.split('/').pop()!;
    await expect
      .poll(async () => (await readdir(path.join(server.dataDir, 'uploads'))).some((n) => n.startsWith(id)))
      .toBe(false);
  });
});
