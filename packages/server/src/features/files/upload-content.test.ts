import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationFolder, type ConversationRef } from '@studybuddy/shared/chat';
import type { UploadedFile } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import { storedFiles } from '../../db/schema/files.ts';
import { startLocalS3, type LocalS3 } from '../../platform/storage/s3-test-server.ts';
import { writeZip, zipEntry } from '../../test/file-formats.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, oggOpusBytes, pdfBytes, wavBytes, webmBytes } from '../chat/chat.test-kit.ts';
import { formData } from '../documents/test/helpers.ts';
import { registerUploadTarget } from './files.service.ts';
import { multipart } from './upload-test-helpers.ts';

/**
 * Issue 23 point 6: what an upload is comes from its bytes on every path (multipart and tus, staged on local disk
 * or in S3): a voice message must be a WAV recording, the stored content type is the sniffed one, and identical
 * bytes never rewrite another file's name, type or owner.
 */

const TUS = { 'Tus-Resumable': '1.0.0' };
const metadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

const html = () =>
  Buffer.from('<!doctype html><html><body><script>fetch("/api/profile")</script>Listen to this</body></html>\n');

const drivers: [string, boolean][] = [
  ['local disk', false],
  ['S3', true],
];

describe.each(drivers)('upload contents judged by their bytes (%s staging and storage)', (_name, useS3) => {
  let s3: LocalS3 | undefined;
  let t: TestApp;
  let base: string;
  let ada: TestUser;
  let bob: TestUser;
  let ref: ConversationRef;
  beforeAll(async () => {
    s3 = useS3 ? await startLocalS3() : undefined;
    t = await createTestApp(s3?.env ?? {});
    registerUploadTarget(t.app.ctx, 'test-file', {
      kind: 'file',
      maxBytes: 8 * 1024 * 1024,
      folder: (u) => `users/${u.id}/test`,
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    [ada, bob] = await friends(t.app, 2, ['Ada', 'Bob']);
    ref = chatRef(ada, bob);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  const voiceQuery = () => `?kind=${ref.kind}&id=${encodeURIComponent(ref.id)}`;

  /** POST /api/uploads/<target> (multipart) over the socket. */
  async function direct(user: TestUser, target: string, data: Buffer, filename: string, type: string, query = '') {
    const body = multipart(data, filename, type);
    const res = await fetch(`${base}/api/uploads/${target}${query}`, {
      method: 'POST',
      headers: { ...body.headers, cookie: user.cookie },
      body: new Uint8Array(body.payload),
    });
    return { status: res.status, json: (await res.json()) as { file: UploadedFile; error?: { message: string } } };
  }

  /** A whole tus upload: create, then one PATCH with every byte; answers the final PATCH. */
  async function resumable(user: TestUser, data: Buffer, meta: Record<string, string>) {
    const created = await fetch(`${base}/api/resumable`, {
      method: 'POST',
      headers: { ...TUS, cookie: user.cookie, 'Upload-Length': String(data.length), 'Upload-Metadata': metadata(meta) },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const res = await fetch(`${base}${created.headers.get('location')!}`, {
      method: 'PATCH',
      headers: {
        ...TUS,
        cookie: user.cookie,
        'Upload-Offset': '0',
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(data),
    });
    return { status: res.status, json: (await res.json()) as { file: UploadedFile; error?: { message: string } } };
  }

  const voiceMeta = (filename: string, filetype = 'audio/wav') => ({
    target: 'chat-voice',
    filename,
    filetype,
    kind: ref.kind,
    id: ref.id,
  });

  it('refuses a disguised voice file (a PDF, an HTML page or a WebM video labelled audio) on /api/uploads and /api/resumable', async () => {
    const before = await t.app.ctx.storage.list(conversationFolder(ref));
    for (const [what, bytes] of [
      ['PDF', pdfBytes()],
      ['HTML', html()],
      ['padded HTML', Buffer.concat([html(), Buffer.alloc(300_000, 0x20)])],
      ['WebM video', webmBytes([1])],
      ['WebM video with a sound track', webmBytes([2, 1], 300_000)],
      ['WebM header without tracks', webmBytes([])],
    ] as const) {
      if (bytes.length <= 262_144) {
        const plain = await direct(ada, 'chat-voice', bytes, 'voice.wav', 'audio/wav', voiceQuery());
        expect(plain.status, `${what} multipart`).toBe(400);
        expect(plain.json.error).toEqual({ code: 'bad_request', message: MSG.chat.invalidVoice, field: 'file' });
      }
      const tus = await resumable(ada, bytes, voiceMeta('voice.wav'));
      expect(tus.status, `${what} tus`).toBe(400);
      expect(tus.json.error).toEqual({ code: 'bad_request', message: MSG.chat.invalidVoice, field: 'file' });
    }
    expect(await t.app.ctx.storage.list(conversationFolder(ref))).toEqual(before);

    // A real recording goes through both paths and is stored as WAV.
    const wav = wavBytes(0.5);
    const plain = await direct(ada, 'chat-voice', wav, 'voice.wav', 'application/octet-stream', voiceQuery());
    expect(plain.status).toBe(201);
    expect(plain.json.file).toMatchObject({ contentType: 'audio/wav', size: wav.length });
    expect(plain.json.file.path).toMatch(/\.wav$/);
    const long = wavBytes(10);
    expect(long.length).toBeGreaterThan(262_144);
    const tus = await resumable(bob, long, voiceMeta('voice.wav', 'text/html'));
    expect(tus.status).toBe(200);
    expect(tus.json.file).toMatchObject({ contentType: 'audio/wav', size: long.length });

    // What MediaRecorder writes: Opus in WebM (audio tracks only) or in Ogg, on both paths.
    for (const [bytes, contentType, ext] of [
      [webmBytes([2]), 'audio/webm', 'webm'],
      [oggOpusBytes(), 'audio/ogg; codecs=opus', 'opus'],
      [webmBytes([2], 300_000), 'audio/webm', 'webm'],
    ] as const) {
      const res =
        bytes.length <= 262_144
          ? await direct(ada, 'chat-voice', bytes, 'voice.wav', 'audio/wav', voiceQuery())
          : await resumable(ada, bytes, voiceMeta('voice.webm', 'video/webm'));
      expect(res.status, contentType).toBe(bytes.length <= 262_144 ? 201 : 200);
      expect(res.json.file).toMatchObject({ contentType, size: bytes.length });
      expect(res.json.file.path).toMatch(new RegExp(`\\.${ext}$`));
    }
  });

  it('stores the content type the bytes show, never the one the client declared', async () => {
    const cases: [string, Buffer, string, string][] = [
      ['page.pdf', html(), 'application/pdf', 'text/plain'],
      ['notes.txt', pdfBytes(), 'text/html', 'application/pdf'],
      [
        'blob.html',
        Buffer.concat([Buffer.from([0, 1, 2, 0xff]), randomBytes(2000)]),
        'text/html',
        'application/octet-stream',
      ],
    ];
    for (const [name, bytes, declared, expected] of cases) {
      const plain = await direct(ada, 'test-file', bytes, name, declared);
      expect(plain.status, name).toBe(201);
      expect(plain.json.file.contentType, `${name} multipart`).toBe(expected);
      expect((await t.app.ctx.storage.head(plain.json.file.path))?.contentType).toBe(expected);
      const served = await fetch(`${base}${plain.json.file.url}`, { headers: { cookie: ada.cookie } });
      expect(served.headers.get('content-type')).toMatch(new RegExp(`^${expected}`));
      await served.arrayBuffer();

      const big = Buffer.concat([bytes, Buffer.alloc(300_000, bytes === cases[2]![1] ? 0 : 0x20)]);
      const tus = await resumable(ada, big, { target: 'test-file', filename: name, filetype: declared });
      expect(tus.status, name).toBe(200);
      expect(tus.json.file.contentType, `${name} tus`).toBe(expected);
    }
  });

  it('judges the type by the first bytes only: a ZIP whose telling entry comes after them is a plain ZIP', async () => {
    // file-type names a ZIP with a META-INF/MANIFEST.MF entry a Java archive, walking the entries to find it.
    const zip = writeZip([
      zipEntry('padding.bin', randomBytes(8000)),
      zipEntry('META-INF/MANIFEST.MF', Buffer.from('x')),
    ]);
    const plain = await direct(ada, 'test-file', zip, 'app.jar', 'application/java-archive');
    expect(plain.json.file.contentType).toBe('application/zip');
    const tus = await resumable(ada, Buffer.concat([zip, Buffer.alloc(300_000)]), {
      target: 'test-file',
      filename: 'app.jar',
    });
    expect(tus.json.file.contentType).toBe('application/zip');
  });

  it("identical bytes from another student or under another name leave the first file's name, type and owner", async () => {
    const wav = wavBytes(0.25);
    const first = await direct(ada, 'chat-voice', wav, 'ada-voice.wav', 'audio/wav', voiceQuery());
    expect(first.status).toBe(201);
    const original = first.json.file;
    const record = async () => {
      const meta = await t.app.ctx.storage.head(original.path);
      const owners = await t.app.ctx.db
        .select({ userId: storedFiles.userId })
        .from(storedFiles)
        .where(eq(storedFiles.path, original.path));
      const served = await fetch(`${base}${original.url}`, { headers: { cookie: bob.cookie } });
      await served.arrayBuffer();
      return {
        name: meta?.customMetadata.originalName,
        type: meta?.contentType,
        owners: owners.map((o) => o.userId),
        disposition: served.headers.get('content-disposition'),
      };
    };
    const before = await record();
    expect(before).toMatchObject({ name: 'ada-voice.wav', type: 'audio/wav', owners: [ada.id] });

    const copies = [
      await direct(bob, 'chat-voice', wav, 'evil.html', 'text/html', voiceQuery()),
      await direct(ada, 'chat-voice', wav, 'renamed.wav', 'audio/wav', voiceQuery()),
      await resumable(bob, wav, voiceMeta('bob.wav')),
    ];
    for (const copy of copies) expect(copy.status).toBeLessThan(300);
    expect(await record()).toEqual(before);
    const bobs = await t.app.ctx.db
      .select({ path: storedFiles.path })
      .from(storedFiles)
      .where(and(eq(storedFiles.userId, bob.id), eq(storedFiles.path, copies[0]!.json.file.path)));
    expect(bobs).toHaveLength(1);

    // The same student sending the same file under the same name reaches the same file (stored and counted once).
    const again = await direct(ada, 'chat-voice', wav, 'ada-voice.wav', 'audio/wav', voiceQuery());
    expect(again.json.file.path).toBe(original.path);
  });
});

describe('course documents uploaded in one request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('keep the content type their bytes show, not the declared one', async () => {
    const student = await createUser(t.app, { courses: ['BIO 101'] });
    for (const [name, bytes, declared, expected] of [
      ['page.html', html(), 'application/pdf', 'text/plain'],
      ['notes.pdf', pdfBytes(), 'text/html', 'application/pdf'],
    ] as const) {
      const body = formData({ data: bytes, filename: name, contentType: declared }, { courseId: 'seed-0' });
      const up = await t.app.inject({
        method: 'POST',
        url: '/api/upload-document',
        headers: { ...body.headers, cookie: student.cookie },
        payload: body.payload,
      });
      expect(up.statusCode, up.body).toBe(201);
      const id = up.json<{ document: { id: string } }>().document.id;
      const file = await t.app.inject({ url: `/api/documents/${id}/file`, headers: { cookie: student.cookie } });
      expect(file.headers['content-type'], name).toBe(expected);
    }
  });
});
