// A student working with files while a fault lasts: a small picture uploaded every 500 ms (a profile picture:
// stored, counted, re-encoded) and the first one downloaded every 200 ms, each answer's status and time kept.
import sharp from 'sharp';
import { sleep } from '../chat/util.ts';
import type { Sample } from './harness.ts';

/** A student uploading a small picture every 500 ms and downloading the first one every 200 ms. */
export class FileLoad {
  readonly uploads: Sample[] = [];
  readonly downloads: Sample[] = [];
  /** Paths the server said it stored. */
  readonly stored: string[] = [];
  private stopped = false;
  private loops: Promise<void>[] = [];
  private url = '';
  constructor(
    private readonly base: string,
    private readonly cookie: string,
  ) {}

  private async upload(n: number): Promise<number> {
    const png = await sharp({ create: { width: 40 + (n % 50), height: 30, channels: 3, background: '#3355aa' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `p${n}.png`);
    const res = await fetch(`${this.base}/api/uploads/profile-image`, {
      method: 'POST',
      headers: { cookie: this.cookie, origin: this.base },
      body: form,
      signal: AbortSignal.timeout(60_000),
    });
    const body = (await res.json().catch(() => ({}))) as { file?: { url: string; path: string } };
    if (body.file) {
      this.stored.push(body.file.path);
      this.url ||= body.file.url;
    }
    return res.status;
  }

  async start() {
    if ((await this.upload(0)) !== 201) throw new Error('the first picture could not be stored');
    const loop = async (every: number, into: Sample[], fn: (n: number) => Promise<number>) => {
      for (let n = 1; !this.stopped; n++) {
        const t0 = performance.now();
        const status = await fn(n).catch(() => 0);
        into.push({ at: t0, status, ms: performance.now() - t0 });
        await sleep(Math.max(0, every - (performance.now() - t0)));
      }
    };
    this.loops = [
      loop(500, this.uploads, (n) => this.upload(n)),
      loop(200, this.downloads, async () => {
        const res = await fetch(`${this.base}${this.url}`, {
          headers: { cookie: this.cookie },
          signal: AbortSignal.timeout(60_000),
        });
        await res.arrayBuffer();
        return res.status;
      }),
    ];
  }

  async stop() {
    this.stopped = true;
    await Promise.all(this.loops);
  }
}
