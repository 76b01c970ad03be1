import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { ChatMessage, ConversationRef } from '@studybuddy/shared/chat';
import { filePathOfUrl } from '@studybuddy/shared/files';
import { MSG } from '@studybuddy/shared/messages';
import { groups, pushSubscriptions, sessions, storedFiles } from '../../db/schema.ts';
import { WS_CLOSE_SIGNED_OUT } from '@studybuddy/shared/realtime';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { rowsNaming } from '../../test/rows-naming.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import { addressOf, chatRef, friends, history, pngBytes, post, upload, wavBytes } from '../chat/chat.test-kit.ts';

/** Every file under a folder on disk, as paths relative to it ('/'-separated). */
async function walk(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...(await walk(path.join(dir, e.name), rel)));
    else out.push(rel);
  }
  return out;
}

const CANVAS_TOKEN = 'deletion-token-0123456789abcdefghij';

/**
 * Issue 24 point 6: deleting an account leaves no file of the student's in storage and no row naming them; their
 * group text messages stay as from "Deleted student"; a group nobody is left in goes; the Canvas token is withdrawn
 * with Canvas; push subscriptions go; their sockets close at once.
 */
describe('account deletion leaves no trace of the student', () => {
  let t: TestApp;
  let emu: Emulator;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  const adaFiles: string[] = [];
  let bobGroupFile: string;
  let bobChatFile: string;
  let shared: ConversationRef;
  let alone: ConversationRef;
  let adaGroupText: string;

  const call = (user: TestUser, method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { cookie: user.cookie }, ...(payload ? { payload } : {}) });

  async function sendFile(user: TestUser, ref: ConversationRef, kind: 'image' | 'voice'): Promise<string> {
    const data = kind === 'image' ? await pngBytes(40 + Math.floor(Math.random() * 40)) : wavBytes(0.3);
    const up = await upload(t.app, user, ref, kind, data, kind === 'image' ? 'image/png' : 'audio/wav');
    expect(up.statusCode, up.body).toBe(201);
    const url = up.json<{ url: string }>().url;
    expect((await post(t.app, user, ref, { type: kind, content: url })).statusCode).toBe(201);
    return filePathOfUrl(url)!;
  }

  beforeAll(async () => {
    emu = await startEmulator({ throttle: false, tokens: [CANVAS_TOKEN] });
    t = await createTestApp(
      { CANVAS_URL_UCLA: emu.url, RATE_LIMITS: 'false' },
      { lms: { client: { backoffMs: 5, maxBackoffMs: 20, timeoutMs: 2_000 } } },
    );
    [ada, bob, cy] = await friends(t.app, 3, ['Adalinda Quuxley', 'Bob', 'Cy']);

    // Canvas connected with a token Canvas knows.
    const connect = await call(ada, 'POST', '/api/lms/connect', { access_token: CANVAS_TOKEN });
    expect(connect.statusCode, connect.body).toBe(200);

    // A one-to-one chat with pictures and a voice message both ways.
    const chat = chatRef(ada, bob);
    expect((await post(t.app, ada, chat, { content: 'hi Bob' })).statusCode).toBe(201);
    adaFiles.push(await sendFile(ada, chat, 'image'), await sendFile(ada, chat, 'voice'));
    bobChatFile = await sendFile(bob, chat, 'image');

    // A group with Bob and Cy, and a group Ada is left alone in.
    const made = await call(ada, 'POST', '/api/groups', { name: 'Study crew', memberIds: [bob.id, cy.id] });
    expect(made.statusCode, made.body).toBe(201);
    shared = { kind: 'group', id: made.json<{ id: string }>().id };
    adaGroupText = `See you at the library ${Date.now()}`;
    expect((await post(t.app, ada, shared, { content: adaGroupText })).statusCode).toBe(201);
    adaFiles.push(await sendFile(ada, shared, 'image'), await sendFile(ada, shared, 'voice'));
    expect((await post(t.app, bob, shared, { content: 'sounds good' })).statusCode).toBe(201);
    bobGroupFile = await sendFile(bob, shared, 'image');
    // Ada's voice message is the group's last message.
    adaFiles.push(await sendFile(ada, shared, 'voice'));

    const solo = await call(ada, 'POST', '/api/groups', { name: 'Ada solo', memberIds: [bob.id] });
    alone = { kind: 'group', id: solo.json<{ id: string }>().id };
    adaFiles.push(await sendFile(ada, alone, 'image'));
    expect((await call(bob, 'POST', `/api/groups/${alone.id}/leave`, {})).statusCode).toBe(204);

    // A push subscription of Ada's browser.
    const [session] = await t.app.ctx.db.select().from(sessions).where(eq(sessions.userId, ada.id));
    await t.app.ctx.db.insert(pushSubscriptions).values({
      id: `push-${ada.id}`,
      userId: ada.id,
      sessionId: session!.id,
      endpoint: 'https://push.example.test/ada',
      p256dh: 'key',
      auth: 'auth',
    });
  });
  afterAll(async () => {
    await t?.close();
    await emu?.close();
  });

  it('removes files, chats, messages, empty groups, the Canvas token and push subscriptions; closes the sockets', async () => {
    const objects = path.join(t.config.dataDir, 'files', 'objects');
    const before = await walk(objects);
    for (const f of [...adaFiles, bobGroupFile, bobChatFile]) expect(before).toContain(f);
    // Sending over the socket had the app listen already.
    const url = await addressOf(t.app);
    const socket = await WsTestClient.connect(url, ada.cookie);
    await socket.waitFor((f) => f.type === 'hello');
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));

    const res = await call(ada, 'DELETE', '/api/account', { password: 'password123' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await closed).toBe(WS_CLOSE_SIGNED_OUT);

    // Storage: none of Ada's files, nothing left of the chat (Bob's picture in it included) or of her lone group.
    const after = await walk(objects);
    for (const f of adaFiles) expect(after).not.toContain(f);
    expect(after.filter((f) => f.startsWith(`chats/${chatRef(ada, bob).id}/`))).toEqual([]);
    expect(after.filter((f) => f.startsWith(`groups/${alone.id}/`))).toEqual([]);
    expect(after.filter((f) => f.includes(ada.id))).toEqual([]);
    expect(after).toContain(bobGroupFile);
    // Bob's storage no longer counts the picture that went with the chat.
    const bobFiles = await t.app.ctx.db.select().from(storedFiles).where(eq(storedFiles.userId, bob.id));
    expect(bobFiles.map((f) => f.path)).toEqual([bobGroupFile]);

    // Tables: no row names Ada (id, e-mail, name), the chat's id included.
    expect(await rowsNaming(t.app.ctx.db, [ada.id, ada.email, 'Adalinda', CANVAS_TOKEN])).toEqual([]);
    expect(await t.app.ctx.db.select().from(groups).where(eq(groups.id, alone.id))).toEqual([]);

    // The group goes on: Ada's text as from "Deleted student", her picture and voice messages gone.
    const page = await history(t.app, bob, shared);
    const messages = page.json<{ messages: ChatMessage[] }>().messages;
    expect(messages.map((m) => [m.senderId, m.senderName, m.type])).toEqual([
      [null, MSG.chat.deletedUser, 'text'],
      [bob.id, 'Bob', 'text'],
      [bob.id, 'Bob', 'image'],
    ]);
    expect(messages[0]!.content).toBe(adaGroupText);
    expect(MSG.chat.deletedUser).toBe('Deleted student');
    const members = await call(cy, 'GET', `/api/groups/${shared.id}`);
    expect(
      members
        .json<{ members: { id: string }[] }>()
        .members.map((m) => m.id)
        .sort(),
    ).toEqual([bob.id, cy.id].sort());

    // Canvas was asked to forget the token, and does.
    expect(emu.requests.some((r) => r.method === 'DELETE' && r.path === '/login/oauth2/token')).toBe(true);
    const probe = await fetch(`${emu.url}/api/v1/courses`, { headers: { Authorization: `Bearer ${CANVAS_TOKEN}` } });
    expect(probe.status).toBe(401);
    expect(await t.app.ctx.db.select().from(pushSubscriptions)).toEqual([]);
    await socket.close();
  });
});
