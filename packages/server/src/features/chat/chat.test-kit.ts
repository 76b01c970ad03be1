import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chatIdFor, type ConversationRef, type MessageType } from '@studybuddy/shared/chat';
import { connections } from '../../db/schema.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { secondInstance } from '../../test/second-instance.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';

type App = TestApp['app'];

/** Helpers of the chat and groups tests. */

/** Makes the two users friends (one connection row per direction, as accepting a request does). */
export async function befriend(app: App, a: TestUser, b: TestUser): Promise<void> {
  await app.ctx.db
    .insert(connections)
    .values([
      { userId: a.id, friendId: b.id },
      { userId: b.id, friendId: a.id },
    ])
    .onConflictDoNothing();
}

/** `n` new users who are all friends of each other. */
export async function friends(app: App, n: 2, names?: string[]): Promise<[TestUser, TestUser]>;
export async function friends(app: App, n: 3, names?: string[]): Promise<[TestUser, TestUser, TestUser]>;
export async function friends(app: App, n: number, names?: string[]): Promise<TestUser[]>;
export async function friends(app: App, n: number, names: string[] = []): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let i = 0; i < n; i++) users.push(await createUser(app, { name: names[i] ?? `Student ${i + 1}` }));
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) await befriend(app, users[i]!, users[j]!);
  return users;
}

export const chatRef = (a: TestUser, b: TestUser): ConversationRef => ({ kind: 'chat', id: chatIdFor(a.id, b.id) });

const base = (ref: ConversationRef) => `/api/${ref.kind === 'chat' ? 'chats' : 'groups'}/${encodeURIComponent(ref.id)}`;

/** What a send answered, shaped like an HTTP answer: 201 stored now, 200 a retry of a stored id, else the refusal. */
export interface SendAnswer {
  statusCode: number;
  /** The answer as JSON text (a test's failure message). */
  body: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read like an inject answer's json()
  json<T = any>(): T;
}

function answer(statusCode: number, data: unknown): SendAnswer {
  return { statusCode, body: JSON.stringify(data), json: <T>() => data as T };
}

/** The app's address, listening on a free loopback port first when it does not listen yet. */
const addresses = new WeakMap<App, Promise<string>>();
export function addressOf(app: App): Promise<string> {
  let address = addresses.get(app);
  if (!address) {
    const bound = app.server.address();
    address =
      bound && typeof bound === 'object'
        ? Promise.resolve(`http://127.0.0.1:${bound.port}`)
        : app.listen({ port: 0, host: '127.0.0.1' });
    addresses.set(app, address);
  }
  return address;
}

/**
 * Sends a message as the web app does, over the one send path: the socket's `send` op on a tab of the student's
 * own (opened for this message and closed after its answer), acknowledged after the commit.
 */
export async function post(
  app: App,
  user: TestUser,
  ref: ConversationRef,
  /** `type` may be any text: a test of what the server refuses. */
  body: { id?: string; type?: MessageType | (string & {}); content: string; replyTo?: string },
): Promise<SendAnswer> {
  const message = { id: body.id ?? randomUUID(), type: body.type ?? 'text', content: body.content };
  const base = await addressOf(app);
  let tab: WsTestClient;
  try {
    tab = await WsTestClient.connect(base, user.cookie);
  } catch (err) {
    // The handshake was refused (signed out, too many sockets): its status, as a request would have had it.
    const status = Number(/handshake refused: (\d+)/.exec(String(err))?.[1] ?? 0);
    if (!status) throw err;
    return answer(status, { error: { code: 'handshake_refused', message: String(err) } });
  }
  try {
    await tab.waitFor((f) => f.type === 'hello', 60_000);
    tab.send({
      op: 'send',
      conversation: ref,
      message: { ...message, ...(body.replyTo ? { replyTo: body.replyTo } : {}) },
    });
    const reply = await tab.waitFor((f) => (f.type === 'ack' || f.type === 'error') && f.ref === message.id, 60_000);
    if (reply.type === 'ack') {
      return answer(reply.created ? 201 : 200, { message: reply.message, created: reply.created });
    }
    if (reply.type !== 'error') throw new Error('unreachable');
    const error = { code: reply.code, message: reply.message, ...(reply.field ? { field: reply.field } : {}) };
    return answer(reply.status, { error });
  } finally {
    await tab.close();
  }
}

export function history(app: App, user: TestUser, ref: ConversationRef, query = '') {
  return app.inject({ method: 'GET', url: `${base(ref)}/messages${query}`, headers: { cookie: user.cookie } });
}

export function markRead(app: App, user: TestUser, ref: ConversationRef, cursor?: number) {
  return app.inject({
    method: 'POST',
    url: `${base(ref)}/read`,
    headers: { cookie: user.cookie },
    payload: cursor === undefined ? {} : { cursor },
  });
}

export function upload(
  app: App,
  user: TestUser,
  ref: ConversationRef,
  kind: 'image' | 'voice',
  data: Buffer,
  type: string,
) {
  return app.inject({
    method: 'POST',
    url: `${base(ref)}/attachments?kind=${kind}`,
    headers: { cookie: user.cookie, 'content-type': type },
    payload: data,
  });
}

export function get(app: App, user: TestUser, url: string) {
  return app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
}

export async function pngBytes(width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#3355aa' } })
    .png()
    .toBuffer();
}

/** A real PNG followed by padding up to `bytes` (decoders ignore trailing bytes; the size is what matters). */
export async function bigImage(bytes: number): Promise<Buffer> {
  const png = await pngBytes();
  return Buffer.concat([png, Buffer.alloc(Math.max(0, bytes - png.length))]);
}

/** A PCM WAV (16-bit mono) of a tone. */
export function wavBytes(seconds = 1, rate = 16000): Buffer {
  const samples = Math.round(seconds * rate);
  const buf = Buffer.alloc(44 + samples * 2);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + samples * 2, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(1, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * 2, 28);
  buf.writeUInt16LE(2, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++)
    buf.writeInt16LE(Math.round(Math.sin((i / rate) * 2 * Math.PI * 440) * 8000), 44 + i * 2);
  return buf;
}

/** A small but real PDF header and body (not an image). */
export const pdfBytes = () => Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

/** An EBML element: id bytes, an 8-byte size (or unknown, as MediaRecorder writes a live Segment and Cluster). */
const ebml = (id: number[], data: Buffer, unknownSize = false) => {
  const size = Buffer.alloc(8);
  if (unknownSize) size.fill(0xff, 1);
  else size.writeBigUInt64BE(BigInt(data.length));
  size[0]! |= 0x01;
  return Buffer.concat([Buffer.from(id), size, data]);
};

/**
 * A WebM as Chromium's MediaRecorder writes one: EBML header, a Segment of unknown size with Info, Tracks (one
 * entry per `tracks` type: 2 audio/Opus, 1 video/VP8) and a Cluster of `bytes` block data.
 */
export function webmBytes(tracks: number[] = [2], bytes = 4_000): Buffer {
  const header = ebml(
    [0x1a, 0x45, 0xdf, 0xa3],
    Buffer.concat([ebml([0x42, 0x86], Buffer.from([1])), ebml([0x42, 0x82], Buffer.from('webm'))]),
  );
  const entries = tracks.map((type, i) =>
    ebml(
      [0xae],
      Buffer.concat([
        ebml([0xd7], Buffer.from([i + 1])),
        ebml([0x83], Buffer.from([type])),
        ebml([0x86], Buffer.from(type === 2 ? 'A_OPUS' : 'V_VP8')),
      ]),
    ),
  );
  const segment = Buffer.concat([
    ebml([0x15, 0x49, 0xa9, 0x66], ebml([0x2a, 0xd7, 0xb1], Buffer.from([0x0f, 0x42, 0x40]))),
    ebml([0x16, 0x54, 0xae, 0x6b], Buffer.concat(entries)),
    ebml(
      [0x1f, 0x43, 0xb6, 0x75],
      Buffer.concat([ebml([0xe7], Buffer.from([0])), ebml([0xa3], Buffer.alloc(bytes, 0x5a))]),
      true,
    ),
  ]);
  return Buffer.concat([header, ebml([0x18, 0x53, 0x80, 0x67], segment, true)]);
}

/** An Ogg Opus stream: its first page (OpusHead) and `bytes` of data after it. */
export function oggOpusBytes(bytes = 4_000): Buffer {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0);
  head[8] = 1;
  head[9] = 1;
  head.writeUInt32LE(48_000, 12);
  const page = Buffer.alloc(28);
  page.write('OggS', 0);
  page[5] = 0x02;
  page[26] = 1;
  page[27] = head.length;
  return Buffer.concat([page, head, Buffer.alloc(bytes, 0x5a)]);
}

/** The students of the chat tests on their listening app; `socketOf` opens a socket that closes after the test. */
export interface ChatCast {
  t: TestApp;
  baseUrl: string;
  ada: TestUser;
  bob: TestUser;
  cal: TestUser;
  eve: TestUser;
  /** The sockets open in this test (closed after it). */
  sockets: WsTestClient[];
  socketOf(user: TestUser): Promise<WsTestClient>;
}

/**
 * Called in a describe: a test app listening on a free port, with Ada, Bob and Cal (friends of each other) and Eve
 * (a stranger); the sockets close after each test, the app after all of them. Its fields are set in beforeAll.
 */
export function chatCast(): ChatCast {
  const cast = {
    sockets: [] as WsTestClient[],
    async socketOf(user: TestUser) {
      const client = await WsTestClient.connect(cast.baseUrl, user.cookie);
      cast.sockets.push(client);
      await client.waitFor((f) => f.type === 'hello');
      return client;
    },
  } as ChatCast;
  beforeAll(async () => {
    cast.t = await createTestApp();
    cast.baseUrl = await cast.t.app.listen({ port: 0, host: '127.0.0.1' });
    [cast.ada, cast.bob, cast.cal] = await friends(cast.t.app, 3, ['Ada Lovelace', 'Bob Babbage', 'Cal Clarke']);
    cast.eve = await createUser(cast.t.app, { name: 'Eve Outsider' });
  });
  afterEach(async () => {
    await Promise.all(cast.sockets.splice(0).map((s) => s.close()));
  });
  afterAll(() => cast.t?.close());
  return cast;
}

/** Ada and Bob (friends) on a test app and a second instance on its PostgreSQL database. */
export interface TwoInstanceCast {
  one: TestApp;
  ada: TestUser;
  bob: TestUser;
  /** Ada's and Bob's sockets on the second instance, each past its hello (closed after the test). */
  socketsOnTwo(): Promise<{ adaOnTwo: WsTestClient; bobOnTwo: WsTestClient }>;
}

/** Called in a describe that runs on PostgreSQL only: the two instances and their students, set in beforeAll. */
export function twoInstanceCast(): TwoInstanceCast {
  let urls: [string, string];
  let closeBoth: () => Promise<void> = async () => undefined;
  const open: WsTestClient[] = [];
  const cast = {
    async socketsOnTwo() {
      const [adaOnTwo, bobOnTwo] = await Promise.all(
        [cast.ada, cast.bob].map(async (user) => {
          const client = await WsTestClient.connect(urls[1], user.cookie);
          open.push(client);
          await client.waitFor((f) => f.type === 'hello');
          return client;
        }),
      );
      return { adaOnTwo: adaOnTwo!, bobOnTwo: bobOnTwo! };
    },
  } as TwoInstanceCast;
  beforeAll(async () => {
    cast.one = await createTestApp();
    ({ urls, close: closeBoth } = await secondInstance(cast.one));
    [cast.ada, cast.bob] = await friends(cast.one.app, 2, ['Ada', 'Bob']);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  afterAll(() => closeBoth());
  return cast;
}
