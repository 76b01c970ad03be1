import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { CHAT_LIMITS, type ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import {
  bigImage,
  chatRef,
  friends,
  get,
  history,
  pdfBytes,
  pngBytes,
  post,
  oggOpusBytes,
  upload,
  wavBytes,
  webmBytes,
} from './chat.test-kit.ts';

describe('chat images and voice messages', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let ref: ConversationRef;
  beforeAll(async () => {
    t = await createTestApp();
    [ada, bob] = await friends(t.app, 2, ['Ada', 'Bob']);
    eve = await createUser(t.app, { name: 'Eve' });
    ref = chatRef(ada, bob);
  });
  afterAll(() => t.close());

  it('uploads an image under the chat id, then posts it as a message the friend can fetch', async () => {
    const up = await upload(t.app, ada, ref, 'image', await pngBytes(640, 480), 'image/png');
    expect(up.statusCode).toBe(201);
    const { url } = up.json() as { url: string };
    expect(url.startsWith(`/api/files/chats/${ref.id}/`)).toBe(true);
    const sent = await post(t.app, ada, ref, { type: 'image', content: url });
    expect(sent.statusCode).toBe(201);

    const page = (await history(t.app, bob, ref)).json();
    expect(page.messages.at(-1)).toMatchObject({ type: 'image', content: url, senderId: ada.id });
    const file = await get(t.app, bob, url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^image\//);
    expect((await sharp(file.rawPayload).metadata()).width).toBe(640);
  });

  it('refuses a file that is not an image and an image of 5 MB or more, with the exact texts', async () => {
    const pdf = await upload(t.app, ada, ref, 'image', pdfBytes(), 'application/pdf');
    expect(pdf.statusCode).toBe(400);
    expect(pdf.json().error.message).toBe(MSG.chat.invalidImage);
    // A text file claiming to be a PNG is judged by its bytes.
    const fake = await upload(t.app, ada, ref, 'image', Buffer.from('just text'), 'image/png');
    expect(fake.json().error.message).toBe(MSG.chat.invalidImage);

    const big = await upload(t.app, ada, ref, 'image', await bigImage(6 * 1024 * 1024), 'image/png');
    expect(big.statusCode).toBe(400);
    expect(big.json().error.message).toBe(MSG.chat.imageTooLarge);
    const exactly5 = await upload(t.app, ada, ref, 'image', await bigImage(CHAT_LIMITS.imageMaxBytes), 'image/png');
    expect(exactly5.json().error.message).toBe(MSG.chat.imageTooLarge);
    const under5 = await upload(t.app, ada, ref, 'image', await bigImage(CHAT_LIMITS.imageMaxBytes - 1), 'image/png');
    expect(under5.statusCode).toBe(201);
  });

  it('stores voice messages recorded as Opus in WebM or Ogg, serves them as audio, and refuses a WebM video', async () => {
    for (const [bytes, contentType, ext] of [
      [webmBytes([2]), 'audio/webm', 'webm'],
      [oggOpusBytes(), 'audio/ogg; codecs=opus', 'opus'],
    ] as const) {
      const up = await upload(t.app, bob, ref, 'voice', bytes, 'audio/wav');
      expect(up.statusCode, contentType).toBe(201);
      const { url } = up.json() as { url: string };
      expect(url).toMatch(new RegExp(`^/api/files/chats/${ref.id}/[0-9a-f]+\\.${ext}$`));
      expect((await post(t.app, bob, ref, { type: 'voice', content: url })).statusCode).toBe(201);
      const file = await get(t.app, ada, url);
      expect(file.headers['content-type']).toBe(contentType);
      expect(file.rawPayload.equals(bytes)).toBe(true);
    }
    for (const video of [webmBytes([1]), webmBytes([2, 1]), webmBytes([])]) {
      const refused = await upload(t.app, bob, ref, 'voice', video, 'audio/webm');
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.message).toBe(MSG.chat.invalidVoice);
    }
  });

  it('stores voice messages as WAV (recordings of earlier versions) and refuses anything else', async () => {
    const up = await upload(t.app, bob, ref, 'voice', wavBytes(1.5), 'audio/wav');
    expect(up.statusCode).toBe(201);
    const { url } = up.json() as { url: string };
    expect(url).toMatch(new RegExp(`^/api/files/chats/${ref.id}/[0-9a-f]+\\.wav$`));
    expect((await post(t.app, bob, ref, { type: 'voice', content: url })).statusCode).toBe(201);
    const file = await get(t.app, ada, url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('audio/wav');
    expect(file.rawPayload.subarray(0, 4).toString()).toBe('RIFF');

    const notWav = await upload(t.app, bob, ref, 'voice', await pngBytes(), 'audio/wav');
    expect(notWav.statusCode).toBe(400);
    expect(notWav.json().error.message).toBe(MSG.chat.invalidVoice);
  });

  it('accepts as content only a stored file of this conversation of the right kind', async () => {
    const other = (await friends(t.app, 2)) as [TestUser, TestUser];
    const elsewhere = (await upload(t.app, other[0], chatRef(...other), 'image', await pngBytes(), 'image/png')).json()
      .url;
    const voice = (await upload(t.app, ada, ref, 'voice', wavBytes(0.2), 'audio/wav')).json().url;
    for (const [type, content] of [
      ['image', elsewhere],
      ['image', voice],
      ['image', 'https://tracker.example/pixel.png'],
      ['image', `/api/files/chats/${ref.id}/${'0'.repeat(64)}.png`],
      ['voice', `/api/files/chats/${ref.id}/../x.wav`],
    ] as const) {
      const res = await post(t.app, ada, ref, { type, content });
      expect(res.statusCode, `${type} ${content}`).toBe(400);
      expect(res.json().error.message).toBe(MSG.chat.badAttachment);
    }
  });

  it('serves images and voice files to members only, and lets no outsider upload', async () => {
    const image = (await upload(t.app, ada, ref, 'image', await pngBytes(), 'image/png')).json().url as string;
    const voice = (await upload(t.app, ada, ref, 'voice', wavBytes(0.3), 'audio/wav')).json().url as string;
    for (const url of [image, voice]) {
      expect((await get(t.app, ada, url)).statusCode).toBe(200);
      expect((await get(t.app, eve, url)).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
    const intruder = await upload(t.app, eve, ref, 'image', await pngBytes(), 'image/png');
    expect(intruder.statusCode).toBe(403);
    const viaPost = await post(t.app, eve, ref, { id: randomUUID(), type: 'image', content: image });
    expect(viaPost.statusCode).toBe(403);
  });
});
