import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DOCUMENT_MAX_UPLOAD_BYTES, formatFileSize } from '@studybuddy/shared/documents';
import type { CourseDocumentsResponse, DocumentPageDto } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { courseDocuments, jobs } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { BIOLOGY_PAGES } from './test/biology.ts';
import { docx, textPdf } from './test/fixtures.ts';
import { ask, detail, formData, upload, uploadOk, waitFor } from './test/helpers.ts';

describe('course documents API', () => {
  let t: TestApp;
  let ada: TestUser;
  let bo: TestUser;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    ada = await createUser(t.app, { courses: ['BIO 101', 'CHEM 20'] });
    bo = await createUser(t.app, { courses: ['BIO 101'] });
  });
  afterAll(() => t.close());

  it('stores an upload of any type, names its type by extension and queues it once', async () => {
    const res = await uploadOk(t.app, ada, Buffer.from('just some notes'), 'notes.txt');
    expect(res).toMatchObject({ filename: 'notes.txt', fileType: 'document', ocr: false, text: '' });
    expect(res.document).toMatchObject({ name: 'notes.txt', source: 'local', size: 15, courseId: 'seed-0' });
    expect(['queued', 'extracting', 'summarising', 'done']).toContain(res.document.status);
    const queued = await t.app.ctx.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `document:${res.document.id}`));
    expect(queued).toHaveLength(1);

    const video = await uploadOk(t.app, ada, Buffer.from([0, 0, 0, 24, 102, 116, 121, 112]), 'Lecture 3.mp4');
    expect(video).toMatchObject({ fileType: 'video', ocr: false });
    const { doc } = await waitFor(t.app, ada, video.document.id);
    expect(doc).toMatchObject({ status: 'done', processed: true, hasText: false, summary: null });

    const scan = await upload(t.app, ada, Buffer.from('not really a png'), 'scan.PNG');
    expect(scan.json()).toMatchObject({ fileType: 'image', ocr: true });
  });

  it('processes a text PDF to done with a summary, lists it, and serves the file back to its owner only', async () => {
    const pdf = await textPdf(BIOLOGY_PAGES);
    const { document } = await uploadOk(t.app, ada, pdf, 'Lecture 2 - Cells.pdf', 'seed-1');
    const { doc, seen } = await waitFor(t.app, ada, document.id);
    expect(doc.status).toBe('done');
    expect(seen).toContain('done');
    expect(doc.summary).toMatch(/\./);
    expect(doc.summaryEngine).toBe('offline');
    expect(doc.ocrUsed).toBe(false);

    const list = await t.app.inject({ url: '/api/courses/seed-1/documents', headers: { cookie: ada.cookie } });
    const body = list.json<CourseDocumentsResponse>();
    expect(body.canvas).toEqual({ connected: false, error: null });
    expect(body.documents.map((d) => d.name)).toEqual(['Lecture 2 - Cells.pdf']);
    expect(body.documents[0]).toMatchObject({ type: 'document', url: `/api/documents/${document.id}/file` });

    const file = await t.app.inject({ url: `/api/documents/${document.id}/file`, headers: { cookie: ada.cookie } });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    expect(file.headers['content-disposition']).toBe(`attachment; filename*=UTF-8''Lecture%202%20-%20Cells.pdf`);

    const pages = await t.app.inject({ url: `/api/documents/${document.id}/pages`, headers: { cookie: ada.cookie } });
    expect(pages.json<{ pages: DocumentPageDto[] }>().pages.map((p) => p.label)).toEqual([
      'page 1',
      'page 2',
      'page 3',
    ]);

    // Only own data (requirements §6): someone else's document is not found, through every route.
    for (const url of [`/api/documents/${document.id}`, `/api/documents/${document.id}/file`]) {
      const other = await t.app.inject({ url, headers: { cookie: bo.cookie } });
      expect(other.statusCode).toBe(404);
    }
    const boAsks = await ask(t.app, bo, document.id, 'When is the midterm exam?');
    expect(boAsks.statusCode).toBe(404);
    const boList = await t.app.inject({ url: '/api/courses/seed-1/documents', headers: { cookie: bo.cookie } });
    expect(boList.json<CourseDocumentsResponse>().documents).toEqual([]);
  });

  it('turns an upload through the files platform (resumable for large files) into a document', async () => {
    const body = formData({ data: Buffer.from('Glycolysis splits glucose.'), filename: 'glyco.txt' });
    const stored = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/course-document?courseId=seed-0',
      headers: { ...body.headers, cookie: ada.cookie },
      payload: body.payload,
    });
    expect(stored.statusCode).toBe(201);
    const file = stored.json<{ file: { path: string } }>().file;
    expect(file.path.startsWith(`documents/${ada.id}/uploads/`)).toBe(true);

    const wrongCourse = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/course-document?courseId=nope',
      headers: { ...body.headers, cookie: ada.cookie },
      payload: body.payload,
    });
    expect(wrongCourse.statusCode).toBe(400);

    const theft = await t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { cookie: bo.cookie },
      payload: { courseId: 'seed-0', path: file.path, name: 'glyco.txt' },
    });
    expect(theft.statusCode).toBe(404);

    const created = await t.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { cookie: ada.cookie },
      payload: { courseId: 'seed-0', path: file.path, name: 'Glycolysis notes.txt' },
    });
    expect(created.statusCode).toBe(201);
    const { document } = created.json<{ document: { id: string; name: string; size: number } }>();
    expect(document).toMatchObject({ name: 'Glycolysis notes.txt', size: 26 });
    const { doc } = await waitFor(t.app, ada, document.id);
    expect(doc).toMatchObject({ status: 'done', hasText: true });
    const answer = await ask(t.app, ada, document.id, 'What does glycolysis split?');
    expect(answer.json().answer).toContain('Glycolysis splits glucose.');
  });

  it('needs a signed-in user', async () => {
    for (const [method, url] of [
      ['GET', '/api/courses/seed-0/documents'],
      ['POST', '/api/upload-document'],
      ['POST', '/api/ask-document'],
      ['POST', '/api/summarize-text'],
      ['POST', '/api/summarize-document'],
      ['POST', '/api/fetch-course-files'],
    ] as const) {
      const res = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('refuses uploads without a file, for a course that is not the user\u2019s, or of a non-multipart body', async () => {
    const noFile = await t.app.inject({
      method: 'POST',
      url: '/api/upload-document',
      headers: { cookie: ada.cookie, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x\r\nContent-Disposition: form-data; name="courseId"\r\n\r\nseed-0\r\n--x--\r\n',
    });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().error).toMatchObject({ message: MSG.courses.fileRequired, field: 'file' });

    const before = await t.app.ctx.db.select().from(courseDocuments);
    const otherCourse = await upload(t.app, ada, Buffer.from('x'), 'a.txt', 'someone-elses-course');
    expect(otherCourse.statusCode).toBe(400);
    expect(otherCourse.json().error).toMatchObject({ message: MSG.courses.courseRequired, field: 'courseId' });
    expect(await t.app.ctx.db.select().from(courseDocuments)).toHaveLength(before.length);

    const json = await t.app.inject({
      method: 'POST',
      url: '/api/upload-document',
      headers: { cookie: ada.cookie },
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('refuses a file over the limit with a clear 413 and keeps answering other requests meanwhile', async () => {
    const big = Buffer.alloc(30 * 1024 * 1024, 1);
    const body = formData({ data: big, filename: 'huge.pdf' }, { courseId: 'seed-0' });
    const started = Date.now();
    const [res, health] = await Promise.all([
      t.app.inject({
        method: 'POST',
        url: '/api/upload-document',
        headers: { ...body.headers, cookie: ada.cookie },
        payload: body.payload,
      }),
      t.app.inject({ url: '/api/health' }),
    ]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(MSG.courses.fileTooLarge(formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES)));
    expect(MSG.courses.fileTooLarge(formatFileSize(DOCUMENT_MAX_UPLOAD_BYTES))).toContain('25 MB');
    expect(health.statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(20_000);
    const rows = await t.app.ctx.db.select().from(courseDocuments).where(eq(courseDocuments.name, 'huge.pdf'));
    expect(rows).toEqual([]);
  });

  it('searches the text of every processed document of a course', async () => {
    const { document } = await uploadOk(
      t.app,
      ada,
      await docx(['Homework 4', 'Explain how enzymes lower the activation energy of a reaction.']),
      'Homework 4.docx',
      'seed-1',
    );
    await waitFor(t.app, ada, document.id);
    const res = await t.app.inject({
      url: '/api/courses/seed-1/search?q=activation%20energy',
      headers: { cookie: ada.cookie },
    });
    const hits = res.json<{
      hits: { documentId: string; name: string; citation: { label: string; passage: string } }[];
    }>().hits;
    expect(hits).toHaveLength(1);
    expect(hits[0]).toMatchObject({ documentId: document.id, name: 'Homework 4.docx' });
    expect(hits[0]!.citation.label).toBe('section 1');
    expect(hits[0]!.citation.passage).toContain('activation energy');
    const none = await t.app.inject({
      url: '/api/courses/seed-1/search?q=photosynthesis',
      headers: { cookie: ada.cookie },
    });
    expect(none.json().hits).toEqual([]);
    const bos = await t.app.inject({ url: '/api/courses/seed-1/search?q=enzymes', headers: { cookie: bo.cookie } });
    expect(bos.json().hits).toEqual([]);
  });

  it('validates questions: blank is refused with the spec text, and nothing is stored', async () => {
    const { document } = await uploadOk(t.app, ada, Buffer.from('Plain words about osmosis and diffusion.'), 'o.txt');
    await waitFor(t.app, ada, document.id);
    const blank = await ask(t.app, ada, document.id, '   ');
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toMatchObject({ message: MSG.courses.questionRequired, field: 'question' });
    expect((await detail(t.app, ada, document.id)).questions).toEqual([]);
    const garbage = await t.app.inject({
      method: 'POST',
      url: '/api/ask-document',
      headers: { cookie: ada.cookie },
      payload: { document_id: 'not-a-uuid', question: 'Why?' },
    });
    expect(garbage.statusCode).toBe(404);
  });

  it('account deletion removes the user\u2019s documents, their questions and their files', async () => {
    const cy = await createUser(t.app, { courses: ['BIO 101'] });
    const { document } = await uploadOk(t.app, cy, Buffer.from('Ribosomes build proteins.'), 'r.txt');
    await waitFor(t.app, cy, document.id);
    await ask(t.app, cy, document.id, 'What do ribosomes build?');
    expect(await t.app.ctx.storage.list(`documents/${cy.id}`)).toHaveLength(1);
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { cookie: cy.cookie },
      payload: { password: 'password123' },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.app.ctx.storage.list(`documents/${cy.id}`)).toEqual([]);
    expect(await t.app.ctx.db.select().from(courseDocuments).where(eq(courseDocuments.userId, cy.id))).toEqual([]);
  });
});
