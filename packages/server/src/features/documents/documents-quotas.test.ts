import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { CourseDocumentsResponse } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { courseDocuments, documentPages, jobs, storedFiles } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { scannedPdf } from './test/fixtures.ts';
import { detail, upload, uploadOk, waitFor } from './test/helpers.ts';
import { documentsFolder } from './storage-paths.ts';

describe('course documents: per-student quotas and fair processing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      RATE_LIMITS: 'false',
      QUOTA_DOCUMENTS_PER_DAY: '2',
      QUOTA_STORAGE_MB: '1',
      DOCUMENT_SLICE_SECONDS: '1',
    });
  });
  afterAll(() => t.close());

  const docsOf = (user: TestUser) =>
    t.app.ctx.db.select().from(courseDocuments).where(eq(courseDocuments.userId, user.id));

  it('refuses what does not fit in storage and documents past the daily limit, leaving nothing behind', async () => {
    const ada = await createUser(t.app, { courses: ['BIO 101'] });
    const big = await upload(t.app, ada, Buffer.alloc(1_500_000, 'a'), 'big notes.txt');
    expect(big.statusCode).toBe(429);
    expect(big.json().error).toEqual({
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.storage, '1 MB', MSG.quota.freeSpace),
    });

    // An add that fails validation is given back: two documents still fit in the day afterwards.
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { cookie: ada.cookie },
      payload: { courseId: 'seed-0', path: `${documentsFolder(ada.id)}/uploads/${'0'.repeat(64)}.pdf`, name: 'x.pdf' },
    });
    expect(missing.statusCode).toBe(404);
    await uploadOk(t.app, ada, Buffer.from('first notes'), 'one.txt');
    await uploadOk(t.app, ada, Buffer.from('second notes'), 'two.txt');

    const third = await upload(t.app, ada, Buffer.from('third notes'), 'three.txt');
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toEqual({
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.documentsPerDay, '2', MSG.quota.tryTomorrow),
    });
    expect((await docsOf(ada)).map((d) => d.name).sort()).toEqual(['one.txt', 'two.txt']);
    expect(await t.app.ctx.storage.list(documentsFolder(ada.id))).toHaveLength(2);
    const counted = await t.app.ctx.db.select().from(storedFiles).where(eq(storedFiles.userId, ada.id));
    expect(counted.map((f) => f.size).sort()).toEqual([11, 12]);
  });

  it('lets another student’s one-page document through while a long scanned PDF is being read', async () => {
    const [ann, ben] = [
      await createUser(t.app, { courses: ['BIO 101'] }),
      await createUser(t.app, { courses: ['BIO 101'] }),
    ];
    const pdf = await scannedPdf([1, 2, 3, 4, 5].map((n) => [`Page ${n} of the long reader says topic ${n} matters.`]));
    const long = await uploadOk(t.app, ann, pdf, 'long reader.pdf');
    const short = await uploadOk(t.app, ben, Buffer.from('The syllabus: the quiz is on Monday.'), 'syllabus.txt');

    const { doc: shortDoc } = await waitFor(t.app, ben, short.document.id);
    expect(shortDoc.status).toBe('done');
    const longWhenShortDone = await detail(t.app, ann, long.document.id);
    expect(longWhenShortDone.status).not.toBe('done');

    const { doc: longDoc } = await waitFor(t.app, ann, long.document.id, ['done', 'failed'], 180_000);
    expect(longDoc.status).toBe('done');
    const pages = await t.app.ctx.db
      .select()
      .from(documentPages)
      .where(eq(documentPages.documentId, long.document.id))
      .orderBy(documentPages.page);
    expect(pages.map((p) => p.page)).toEqual([1, 2, 3, 4, 5]);
    expect(pages[4]!.text).toContain('topic 5');
    // Taking turns used no attempt.
    const [job] = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `document:${long.document.id}`));
    expect(job, JSON.stringify(job)).toMatchObject({ status: 'done', attempts: 1, owner: ann.id });
  }, 240_000);
});

describe('Canvas files count as documents added when first opened', () => {
  let emu: Emulator;
  let t: TestApp;
  beforeAll(async () => {
    emu = await startEmulator({ throttle: false });
    t = await createTestApp({ CANVAS_URL_UCLA: emu.url, RATE_LIMITS: 'false', QUOTA_DOCUMENTS_PER_DAY: '2' });
  });
  afterAll(async () => {
    await t?.close();
    await emu?.close();
  });

  it('counts each first opening, not the listing nor a second opening, and refuses the third of the day', async () => {
    const ada = await createUser(t.app);
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/lms/connect',
      headers: { cookie: ada.cookie },
      payload: { access_token: DEMO_TOKEN },
    });
    expect(connect.statusCode).toBe(200);
    const listed = (
      await t.app.inject({ url: '/api/courses/1100/documents?refresh=1', headers: { cookie: ada.cookie } })
    ).json<CourseDocumentsResponse>();
    const canvasDocs = listed.documents.filter((d) => d.source === 'canvas');
    expect(canvasDocs.length).toBeGreaterThanOrEqual(3); // listing them counted nothing
    const open = (id: string) =>
      t.app.inject({ method: 'POST', url: `/api/documents/${id}/process`, headers: { cookie: ada.cookie } });
    const [a, b, c] = canvasDocs as [(typeof canvasDocs)[0], (typeof canvasDocs)[0], (typeof canvasDocs)[0]];
    expect((await open(a.id)).statusCode).toBe(200);
    expect((await open(a.id)).statusCode).toBe(200); // already on its way: not counted again
    expect((await open(b.id)).statusCode).toBe(200);
    const third = await open(c.id);
    expect(third.statusCode).toBe(429);
    expect(third.json().error).toEqual({
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MSG.quota.documentsPerDay, '2', MSG.quota.tryTomorrow),
    });
    const [row] = await t.app.ctx.db
      .select()
      .from(courseDocuments)
      .where(and(eq(courseDocuments.id, c.id), eq(courseDocuments.userId, ada.id)));
    expect(row).toMatchObject({ status: 'not_processed', storagePath: null });
    expect(
      await t.app.ctx.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `document:${c.id}`)),
    ).toHaveLength(0);
  });
});
