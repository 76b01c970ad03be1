import { randomUUID } from 'node:crypto';
import JSZip from 'jszip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_API } from '@studybuddy/shared/account';
import { MSG } from '@studybuddy/shared/messages';
import { courseDocuments, documentPages, feedback } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, pngBytes, post, upload } from '../chat/chat.test-kit.ts';

/**
 * Issue 24 point 5: "Download my data" gives a ZIP of the student's profile, courses, friends, sent messages with
 * their conversations' names, groups, coursework cache, documents with files and text, and feedback; nothing of
 * another student's beyond what the student already sees; one download an hour.
 */
describe('download my data', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let groupId: string;

  const call = (user: TestUser, method: 'POST' | 'GET', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: user.cookie }, ...(payload ? { payload } : {}) });

  /** Asks for the download and fetches the ZIP from the link. */
  async function download(user: TestUser) {
    const asked = await call(user, 'POST', ACCOUNT_API.export, {});
    expect(asked.statusCode, asked.body).toBe(200);
    const { url } = asked.json<{ url: string }>();
    const res = await call(user, 'GET', url);
    return { url, res };
  }

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMITS: 'false' });
    [ada, bob] = await friends(t.app, 2, ['Ada Export', 'Bob Friendly']);
    eve = await createUser(t.app, { name: 'Eve Stranger', bio: 'eve-private-bio', courses: ['Eve Course'] });
    const chat = chatRef(ada, bob);
    await post(t.app, ada, chat, { content: 'ada-says-hello-in-chat' });
    await post(t.app, bob, chat, { content: 'bob-secret-reply' });
    const up = await upload(t.app, ada, chat, 'image', await pngBytes(30, 20), 'image/png');
    await post(t.app, ada, chat, { type: 'image', content: up.json<{ url: string }>().url });
    const made = await call(ada, 'POST', '/api/groups', { name: 'Export Club', memberIds: [bob.id] });
    groupId = made.json<{ id: string }>().id;
    await post(t.app, ada, { kind: 'group', id: groupId }, { content: 'ada-in-the-group' });
    await post(t.app, bob, { kind: 'group', id: groupId }, { content: 'bob-in-the-group' });
    // A course document with its file and extracted text, and feedback.
    const docId = randomUUID();
    const storagePath = `documents/${ada.id}/uploads/${docId}/notes.txt`;
    await t.app.ctx.storage.put(storagePath, Buffer.from('ada-document-bytes'), { contentType: 'text/plain' });
    await t.app.ctx.db.insert(courseDocuments).values({
      id: docId,
      userId: ada.id,
      courseId: 'c1',
      name: 'notes.txt',
      type: 'document',
      source: 'local',
      contentType: 'text/plain',
      size: 18,
      storagePath,
      status: 'done',
      processed: true,
    });
    await t.app.ctx.db.insert(documentPages).values({
      documentId: docId,
      page: 1,
      unit: 'page',
      label: 'Page 1',
      text: 'ada-extracted-text',
      method: 'text',
    });
    await t.app.ctx.db.insert(feedback).values([
      { id: randomUUID(), userId: ada.id, feedback: 'ada-feedback-text', rating: 4 },
      { id: randomUUID(), userId: eve.id, feedback: 'eve-feedback-text', rating: 1 },
    ]);
  });
  afterAll(() => t.close());

  it('streams a ZIP of the student’s data with nothing of others but the names they see; once an hour', async () => {
    const { url, res } = await download(ada);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="studybuddy-data-\d{4}-\d\d-\d\d\.zip"$/);
    const zip = await JSZip.loadAsync(res.rawPayload);
    const names = Object.keys(zip.files).sort();
    for (const f of [
      'README.txt',
      'profile.json',
      'courses.json',
      'friends.json',
      'messages.json',
      'groups.json',
      'coursework.json',
      'documents.json',
      'feedback.json',
    ]) {
      expect(names).toContain(f);
    }
    const read = (name: string) => zip.file(name)!.async('string');
    const parsed = async <T>(name: string) => JSON.parse(await read(name)) as T;

    expect(await parsed('profile.json')).toMatchObject({ uid: ada.id, email: ada.email, name: 'Ada Export' });
    expect(await parsed('friends.json')).toEqual([{ name: 'Bob Friendly' }]);
    const messages =
      await parsed<{ conversation: { kind: string; name: string }; type: string; content: string }[]>('messages.json');
    expect(messages.map((m) => [m.conversation.kind, m.conversation.name, m.type])).toEqual([
      ['chat', 'Bob Friendly', 'text'],
      ['chat', 'Bob Friendly', 'image'],
      ['group', 'Export Club', 'text'],
    ]);
    expect(messages[0]!.content).toBe('ada-says-hello-in-chat');
    // The picture is in the ZIP, named by the message (stored re-encoded, as a JPEG).
    expect(messages[1]!.content).toMatch(/^messages\/files\/[\w-]+\.jpg$/);
    const picture = await zip.file(messages[1]!.content)!.async('nodebuffer');
    expect(picture.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect(await parsed('groups.json')).toEqual([
      expect.objectContaining({ name: 'Export Club', kind: 'group', createdByYou: true, memberCount: 2 }),
    ]);
    expect(await parsed('documents.json')).toEqual([expect.objectContaining({ name: 'notes.txt', courseId: 'c1' })]);
    const docFiles = names.filter((n) => n.startsWith('documents/'));
    expect(docFiles).toEqual(['documents/001-notes.txt/notes.txt', 'documents/001-notes.txt/text.txt']);
    expect(await read('documents/001-notes.txt/notes.txt')).toBe('ada-document-bytes');
    expect(await read('documents/001-notes.txt/text.txt')).toContain('ada-extracted-text');
    expect(await parsed('feedback.json')).toEqual([expect.objectContaining({ feedback: 'ada-feedback-text' })]);
    expect(await parsed('coursework.json')).toMatchObject({ connected: false, coursework: [] });

    // Nothing of another student's: not Bob's messages, id or e-mail, and nothing at all of Eve.
    const everything = (await Promise.all(names.filter((n) => !n.startsWith('messages/files/')).map(read))).join('\n');
    for (const foreign of [
      'bob-secret-reply',
      'bob-in-the-group',
      bob.id,
      bob.email,
      eve.id,
      eve.email,
      'Eve Stranger',
      'eve-private-bio',
      'Eve Course',
      'eve-feedback-text',
    ]) {
      expect(everything, foreign).not.toContain(foreign);
    }

    // The link works once, and only for its student; the next download waits an hour.
    expect((await call(ada, 'GET', url)).statusCode).toBe(404);
    const again = await call(ada, 'POST', ACCOUNT_API.export, {});
    expect(again.statusCode).toBe(429);
    expect(again.json().error.message).toBe(MSG.quota.exceeded(MSG.account.exportsPerHour, '1', MSG.quota.tryLater));
    const bobs = await call(bob, 'POST', ACCOUNT_API.export, {});
    const stolen = await call(eve, 'GET', bobs.json<{ url: string }>().url);
    expect(stolen.statusCode).toBe(404);
    expect((await call(eve, 'GET', `${ACCOUNT_API.download}?ticket=v1.made.up.ticket`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: ACCOUNT_API.export, payload: {} })).statusCode).toBe(401);
  });
});
