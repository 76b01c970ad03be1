import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { jobs } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, upload as chatUpload } from '../chat/chat.test-kit.ts';
import { uploadDirect } from '../files/upload-test-helpers.ts';
import { docxBomb, pdfBomb, pdfContentBomb, pngBomb } from './test/bombs.ts';
import { docx, textImage, textPdf } from './test/fixtures.ts';
import { uploadOk, waitFor } from './test/helpers.ts';

const MB = 2 ** 20;
/** Generous: the PNG bomb grew the server by 1.7 GB (and now, unchecked, aborts the process in Skia). */
const MAX_RSS_GROWTH = 300 * MB;

describe('decompression bombs uploaded as course documents', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    ada = await createUser(t.app, { courses: ['BIO 101'] });
    // Warm the document thread (pdf.js, OCR, Office readers load once per thread) so growth is the bomb's alone.
    for (const [bytes, name] of [
      [await textPdf([['Warm-up page about cells and enzymes.']]), 'warm.pdf'],
      [await textImage(['Warm-up image text.']), 'warm.png'],
      [await docx(['Warm-up paragraph.']), 'warm.docx'],
    ] as const) {
      const { document } = await uploadOk(t.app, ada, bytes, name);
      expect((await waitFor(t.app, ada, document.id)).doc.status).toBe('done');
    }
  }, 120_000);
  afterAll(() => t.close());

  /** Uploads through the real route, waits for the end, and measures the server's RSS peak meanwhile. */
  async function processBomb(bytes: Buffer, name: string) {
    global.gc?.();
    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20);
    try {
      const { document } = await uploadOk(t.app, ada, bytes, name);
      const { doc } = await waitFor(t.app, ada, document.id, ['done', 'failed'], 60_000);
      const [job] = await t.app.ctx.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `document:${document.id}`));
      const health = await t.app.inject({ url: '/api/health' });
      return { doc, attempts: job!.attempts, growth: peak - before, health: health.statusCode };
    } finally {
      clearInterval(sampler);
    }
  }

  const cases: [string, () => Promise<Buffer> | Buffer, string, string][] = [
    ['a PNG declaring 30000 × 30000', () => pngBomb(30_000, 30_000), 'scan.png', MSG.courses.imageTooLarge(40)],
    [
      'a PDF painting a 30000 × 30000 image',
      () => pdfBomb({ image: { width: 30_000, height: 30_000 } }),
      'scan.pdf',
      MSG.courses.imageTooLarge(40),
    ],
    ['a PDF of 501 pages', () => pdfBomb({ pages: 501 }), 'long.pdf', MSG.courses.tooManyPages(500)],
    ['a PDF page of 1 GB of drawing commands', () => pdfContentBomb(1024 * MB), 'page.pdf', MSG.courses.tooLargeToRead],
    ['a DOCX inflating to 300 MB', () => docxBomb(300 * MB), 'essay.docx', MSG.courses.tooLargeToRead],
    [
      'a DOCX hiding 300 MB behind small sizes',
      () => docxBomb(300 * MB, 'lie'),
      'notes.docx',
      MSG.courses.tooLargeToRead,
    ],
  ];

  it.each(cases)(
    '%s ends unreadable with the spec text, once, and the server lives on',
    async (_name, make, filename, reason) => {
      const { doc, attempts, growth, health } = await processBomb(await make(), filename);
      expect(doc.status).toBe('failed');
      expect(doc.error).toMatchObject({ kind: 'unreadable', message: MSG.courses.summaryFailed(reason) });
      expect(attempts).toBe(1);
      expect(health).toBe(200);
      expect(growth).toBeLessThan(MAX_RSS_GROWTH);
    },
    90_000,
  );
});

describe('images beyond the pixel cap sent as profile pictures or chat images', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false', IMAGE_MAX_PIXELS: '1000000' });
  });
  afterAll(() => t.close());

  it('refuses them with a 422 that names the cap, and still takes an image within it', async () => {
    const [ada, bo] = await friends(t.app, 2);
    const tooLarge = { code: 'image_too_large', message: MSG.files.tooManyPixels(1), field: 'file' };

    const profile = await uploadDirect(t.app, ada.cookie, pngBomb(30_000, 30_000), { filename: 'me.png' });
    expect(profile.statusCode).toBe(422);
    expect(profile.json()).toEqual({ error: tooLarge });
    // The configured cap, not a built-in one: 1001 × 1000 is just over a megapixel.
    const justOver = await uploadDirect(t.app, ada.cookie, pngBomb(1001, 1000), { filename: 'me.png' });
    expect(justOver.json()).toEqual({ error: tooLarge });

    const chat = await chatUpload(t.app, ada, chatRef(ada, bo), 'image', pngBomb(30_000, 30_000), 'image/png');
    expect(chat.statusCode).toBe(422);
    expect(chat.json()).toEqual({ error: tooLarge });

    const ok = await uploadDirect(t.app, ada.cookie, await textImage(['Hello']), { filename: 'me.png' });
    expect(ok.statusCode).toBe(201);
  });
});
