import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { CanvasFileDto, CourseDocumentsResponse } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { CanvasFilesError, type CanvasFilesSource } from './canvas-files.ts';
import { ask, detail, summarize, uploadOk, waitFor } from './test/helpers.ts';

describe('Canvas files of a course (against the Canvas emulator)', () => {
  let emu: Emulator;
  let t: TestApp;
  let ada: TestUser;
  const list = async (courseId: string, user = ada) =>
    (
      await t.app.inject({ url: `/api/courses/${courseId}/documents?refresh=1`, headers: { cookie: user.cookie } })
    ).json<CourseDocumentsResponse>();

  beforeAll(async () => {
    emu = await startEmulator({ throttle: false });
    t = await createTestApp({ CANVAS_URL_UCLA: emu.url, RATE_LIMITS: 'false' });
    ada = await createUser(t.app);
    const connect = await t.app.inject({
      method: 'POST',
      url: '/api/lms/connect',
      headers: { cookie: ada.cookie },
      payload: { access_token: DEMO_TOKEN },
    });
    expect(connect.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await emu?.close();
  });

  it('lists the course’s Canvas files with their module names, beside uploads', async () => {
    const body = await list('1100');
    expect(body.canvas).toEqual({ connected: true, error: null });
    const expected = emu.data.files.filter((f) => f.course_id === 1100);
    const canvasDocs = body.documents.filter((d) => d.source === 'canvas');
    expect(canvasDocs.map((d) => d.name).sort()).toEqual(expected.map((f) => f.display_name).sort());
    const linked = emu.data.modules
      .filter((m) => m.course_id === 1100)
      .flatMap((m) => m.items.filter((i) => i.type === 'File').map((i) => ({ id: i.content_id, module: m.name })));
    expect(linked.length).toBeGreaterThan(0);
    for (const l of linked) {
      const file = expected.find((f) => f.id === l.id)!;
      const doc = canvasDocs.find((d) => d.name === file.display_name)!;
      expect(doc.moduleName).toBe(linked.find((x) => x.id === l.id)!.module);
    }
    expect(canvasDocs.every((d) => d.status === 'not_processed' && d.processed === false)).toBe(true);

    // §7 call 3 gives the same files with the spec's field names; listing again adds no duplicates.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/fetch-course-files',
      headers: { cookie: ada.cookie },
      payload: { course_id: 1100 },
    });
    expect(res.statusCode).toBe(200);
    const files = res.json<{ files: CanvasFileDto[] }>().files;
    expect(files).toHaveLength(expected.length);
    const first = expected[0]!;
    expect(files.find((f) => f.id === `canvas_${first.id}`)).toMatchObject({
      display_name: first.display_name,
      size: first.content.length,
      source: 'canvas',
      courseId: '1100',
    });
    expect((await list('1100')).documents.filter((d) => d.source === 'canvas')).toHaveLength(expected.length);
  });

  it('reads a Canvas file when it is opened; it is processed once its text is stored', async () => {
    const pdf = emu.data.files.find((f) => f.course_id === 1100 && f.content_type === 'application/pdf' && !f.locked)!;
    const doc = (await list('1100')).documents.find((d) => d.name === pdf.display_name)!;
    const start = await t.app.inject({
      method: 'POST',
      url: `/api/documents/${doc.id}/process`,
      headers: { cookie: ada.cookie },
    });
    // The queue may already have claimed it by the time the answer is built.
    expect(['queued', 'extracting', 'summarising', 'done']).toContain(start.json().document.status);
    const { doc: done } = await waitFor(t.app, ada, doc.id);
    expect(done).toMatchObject({ status: 'done', processed: true, hasText: true, source: 'canvas' });
    const content = await t.app.inject({
      method: 'POST',
      url: '/api/fetch-course-files',
      headers: { cookie: ada.cookie },
      payload: { course_id: '1100', file_id: `canvas_${pdf.id}` },
    });
    expect(content.statusCode).toBe(200);
    expect(content.json().content.length).toBeGreaterThan(10);
    const question = await ask(t.app, ada, doc.id, `What is ${pdf.display_name.replace(/\.pdf$/i, '')} about?`);
    expect(question.statusCode).toBe(200);
    expect((await detail(t.app, ada, doc.id)).questions).toHaveLength(1);
  });

  it('shows both permission texts on a 403 and still accepts uploads to that course', async () => {
    emu.addFault({ kind: 'forbidden', courseId: 1102, resource: 'files' });
    try {
      const body = await list('1102');
      expect(body.canvas).toEqual({
        connected: true,
        error: { kind: 'forbidden', messages: [MSG.courses.canvasForbidden, MSG.courses.canStillUpload] },
      });
      const call = await t.app.inject({
        method: 'POST',
        url: '/api/fetch-course-files',
        headers: { cookie: ada.cookie },
        payload: { course_id: '1102' },
      });
      expect(call.statusCode).toBe(403);
      expect(call.json().error.message).toBe(`${MSG.courses.canvasForbidden} ${MSG.courses.canStillUpload}`);
      const up = await uploadOk(t.app, ada, Buffer.from('My own notes for this course.'), 'notes.txt', '1102');
      expect(up.document.source).toBe('local');
      expect((await list('1102')).documents.map((d) => d.name)).toEqual(['notes.txt']);
    } finally {
      emu.clearFaults();
    }
  });

  it('says Canvas could not be reached when it is down, and the connect prompt when not connected', async () => {
    const bo = await createUser(t.app, { courses: ['BIO 101'] });
    expect((await list('seed-0', bo)).canvas).toEqual({ connected: false, error: null });
    const port = new URL(emu.url).port;
    await emu.close();
    const body = await list('1101');
    expect(body.canvas.error).toEqual({ kind: 'unreachable', messages: [MSG.courses.canvasUnreachable] });
    emu = await startEmulator({ throttle: false, port: Number(port) });
  });
});

describe('a Canvas file the token may not download', () => {
  let t: TestApp;
  let ada: TestUser;
  beforeAll(async () => {
    const canvas: CanvasFilesSource = {
      isConnected: async () => true,
      listCourseFiles: async () => [
        {
          id: '9',
          displayName: 'Locked reading.pdf',
          filename: 'locked.pdf',
          size: 1234,
          url: '',
          contentType: 'application/pdf',
          createdAt: '2025-09-01T10:00:00Z',
          moduleName: 'Week 1',
        },
      ],
      downloadFile: async () => {
        throw new CanvasFilesError('forbidden', 'the file is locked');
      },
    };
    t = await createTestApp({ RATE_LIMITS: 'false' }, { documents: { canvas } });
    ada = await createUser(t.app, { courses: ['BIO 101'] });
  });
  afterAll(() => t.close());

  it('fails with the access-denied guidance and flag', async () => {
    const list = await t.app.inject({ url: '/api/courses/seed-0/documents', headers: { cookie: ada.cookie } });
    const doc = list.json<CourseDocumentsResponse>().documents[0]!;
    expect(doc).toMatchObject({
      name: 'Locked reading.pdf',
      moduleName: 'Week 1',
      createdAt: '2025-09-01T10:00:00.000Z',
    });
    const summary = await summarize(t.app, ada, { document_id: doc.id, source: 'canvas' });
    expect(summary.statusCode).toBe(202);
    const { doc: failed } = await waitFor(t.app, ada, doc.id);
    expect(failed.error).toEqual({
      kind: 'access_denied',
      message: MSG.courses.accessDenied,
      steps: [...MSG.courses.accessDeniedSteps],
    });
    const again = await summarize(t.app, ada, { document_id: doc.id });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ access_denied: true, ocr_failed: false });
  });
});
