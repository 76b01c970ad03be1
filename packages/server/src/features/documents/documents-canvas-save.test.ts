import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CourseDocumentsResponse } from '@studybuddy/shared/documents-api';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import type { CanvasFilesSource } from './canvas-files.ts';
import { summarize, waitFor } from './test/helpers.ts';

const NOTES = 'Week 1 notes: photosynthesis turns light, water and carbon dioxide into sugar and oxygen.';

describe('Canvas content that cannot be saved to its document', () => {
  let t: TestApp;
  let ada: TestUser;
  let storageDown = false;
  beforeAll(async () => {
    const canvas: CanvasFilesSource = {
      isConnected: async () => true,
      listCourseFiles: async () => [
        {
          id: '7',
          displayName: 'Week 1 notes.txt',
          filename: 'week1.txt',
          size: NOTES.length,
          url: '',
          contentType: 'text/plain',
          createdAt: '2025-09-01T10:00:00Z',
          moduleName: 'Week 1',
        },
      ],
      downloadFile: async () => ({ bytes: Buffer.from(NOTES), contentType: 'text/plain' }),
    };
    t = await createTestApp({ RATE_LIMITS: 'false' }, { documents: { canvas } });
    ada = await createUser(t.app, { courses: ['BIO 101'] });
    // The storage refuses writes while `storageDown` (a full or read-only disk): fetching works, saving does not.
    const storage = t.app.ctx.storage;
    const put = storage.put.bind(storage);
    storage.put = async (...args) => {
      if (storageDown) throw new Error('EROFS: read-only file system');
      return put(...args);
    };
  });
  afterAll(() => t.close());

  it('fails with the spec text, then works once the storage is back', async () => {
    const list = await t.app.inject({ url: '/api/courses/seed-0/documents', headers: { cookie: ada.cookie } });
    const doc = list.json<CourseDocumentsResponse>().documents[0]!;
    expect(doc).toMatchObject({ name: 'Week 1 notes.txt', status: 'not_processed' });

    storageDown = true;
    const summary = await summarize(t.app, ada, { document_id: doc.id, source: 'canvas' });
    expect(summary.statusCode).toBe(202);
    const { doc: failed } = await waitFor(t.app, ada, doc.id);
    expect(failed).toMatchObject({ status: 'failed', processed: false });
    expect(failed.error?.message).toBe(MSG.courses.updateFailed);
    const again = await summarize(t.app, ada, { document_id: doc.id });
    expect(again.statusCode).toBe(422);
    expect(again.json().error.message).toBe(MSG.courses.updateFailed);

    storageDown = false;
    const retry = await t.app.inject({
      method: 'POST',
      url: `/api/documents/${doc.id}/process`,
      headers: { cookie: ada.cookie },
    });
    expect(retry.statusCode).toBe(200);
    const { doc: done } = await waitFor(t.app, ada, doc.id);
    expect(done).toMatchObject({ status: 'done', processed: true, hasText: true });
  });
});
