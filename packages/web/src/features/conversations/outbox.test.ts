import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { fakeChatServer } from '../../test/fake-chat-server.ts';
import { Outbox } from './outbox.ts';

const chat: ConversationRef = { kind: 'chat', id: 'a_b' };
const group: ConversationRef = { kind: 'group', id: 'g1' };
const text = (id: string, conversation = chat) =>
  ({ id, type: 'text', text: `text of ${id}`, conversation, senderId: 'me', senderName: 'Me' }) as const;

let server: ReturnType<typeof fakeChatServer>;
let unbinds: (() => void)[];

/** A tab's outbox for user `me` (a new instance is a reloaded tab: only localStorage carries over). */
function openTab(userId = 'me') {
  const box = new Outbox((ref, message) => server.send(ref, message));
  const hooks = { onSent: vi.fn(), onFailed: vi.fn() };
  const unbind = box.bind(userId, hooks);
  unbinds.push(unbind);
  return { box, hooks, close: unbind };
}

/** Lets the pending fetches and their promise chains settle (no timer moves). */
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
  unbinds = [];
  server = fakeChatServer();
  vi.stubGlobal('fetch', server.fetch);
});

afterEach(() => {
  unbinds.forEach((unbind) => unbind());
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('outbox', () => {
  it('sends messages one at a time, in the order they were written', async () => {
    server = fakeChatServer({ latencyMs: 50 });
    vi.stubGlobal('fetch', server.fetch);
    const { box, hooks } = openTab();
    box.add(text('m1'));
    box.add(text('m2'));
    box.add(text('m3', group));
    expect(box.snapshot().map((e) => [e.id, e.status])).toEqual([
      ['m1', 'pending'],
      ['m2', 'pending'],
      ['m3', 'pending'],
    ]);
    await vi.advanceTimersByTimeAsync(200);
    expect(server.stored.map((m) => [m.id, m.cursor])).toEqual([
      ['m1', 1],
      ['m2', 2],
      ['m3', 3],
    ]);
    expect(server.maxInFlight()).toBe(1);
    expect(hooks.onSent.mock.calls.map(([m]) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(box.snapshot()).toEqual([]);
  });

  it('holds the queue on a failure worth retrying and sends again after a growing back-off', async () => {
    const { box, hooks } = openTab();
    server.failNext('send', 'network', 503, 429);
    box.add(text('m1'));
    box.add(text('m2'));
    await settle();
    // m1 met no connection; m2 waits behind it.
    expect(server.sends).toEqual(['m1']);
    expect(box.snapshot().map((e) => e.status)).toEqual(['pending', 'pending']);

    await vi.advanceTimersByTimeAsync(999);
    expect(server.sends).toEqual(['m1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sends).toEqual(['m1', 'm1']); // 503 after 1 s
    await vi.advanceTimersByTimeAsync(1999);
    expect(server.sends).toEqual(['m1', 'm1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.sends).toEqual(['m1', 'm1', 'm1']); // 429 after 2 s more
    await vi.advanceTimersByTimeAsync(4000);
    expect(server.sends).toEqual(['m1', 'm1', 'm1', 'm1', 'm2']);
    expect(server.stored.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(hooks.onFailed).not.toHaveBeenCalled();
    expect(box.snapshot()).toEqual([]);
  });

  it('tries again at once when the browser comes back online', async () => {
    const { box } = openTab();
    server.failNext('send', 'network', 'network');
    box.add(text('m1'));
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.sends).toEqual(['m1', 'm1']); // the next try would wait 2 s
    window.dispatchEvent(new Event('online'));
    await settle();
    expect(server.stored.map((m) => m.id)).toEqual(['m1']);
    expect(box.snapshot()).toEqual([]);
  });

  it("marks a refused message failed with the server's text, sends the next, and sends it again on retry", async () => {
    const { box, hooks } = openTab();
    server.failNext('send', 400);
    box.add(text('m1'));
    box.add(text('m2'));
    await settle();
    expect(box.snapshot().map((e) => [e.id, e.status, e.error])).toEqual([['m1', 'failed', 'send refused (400)']]);
    expect(hooks.onFailed).toHaveBeenCalledWith(expect.objectContaining({ id: 'm1' }), 'send refused (400)');
    expect(server.stored.map((m) => m.id)).toEqual(['m2']);

    box.retry('m1');
    await settle();
    expect(server.stored.map((m) => m.id)).toEqual(['m2', 'm1']);
    expect(box.snapshot()).toEqual([]);
  });

  it("gives a group's refused message the groups' text", async () => {
    const { box, hooks } = openTab();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server.failNext('send', 403);
    box.add(text('m1', group));
    await settle();
    expect(hooks.onFailed).toHaveBeenCalledWith(expect.objectContaining({ id: 'm1' }), MSG.groups.sendFailed);
  });

  it('keeps unsent text messages across a reload and stores each once, even when the first answer was lost', async () => {
    const first = openTab();
    server.failNext('send', 'lost');
    first.box.add(text('m1'));
    first.box.add(text('m2'));
    await settle();
    // The server wrote m1 but its answer never came: the tab still holds both.
    expect(server.stored.map((m) => m.id)).toEqual(['m1']);
    expect(first.box.snapshot().map((e) => e.id)).toEqual(['m1', 'm2']);
    first.close();

    const reloaded = openTab();
    expect(reloaded.box.snapshot().map((e) => [e.id, e.text, e.status])).toEqual([
      ['m1', 'text of m1', 'pending'],
      ['m2', 'text of m2', 'pending'],
    ]);
    await settle();
    expect(server.sends).toEqual(['m1', 'm1', 'm2']);
    expect(server.stored.map((m) => m.id)).toEqual(['m1', 'm2']);
    expect(reloaded.hooks.onSent.mock.calls.map(([m]) => m.id)).toEqual(['m1', 'm2']);
    expect(localStorage.getItem('studybuddy.outbox.me')).toBeNull();

    // Nothing is left for a third load, and another user of this browser never sees this one's messages.
    expect(openTab().box.snapshot()).toEqual([]);
    expect(openTab('someone-else').box.snapshot()).toEqual([]);
  });

  it('keeps an uploaded attachment across a reload (not uploaded again) but not a file still to upload', async () => {
    const first = openTab();
    server.failNext('send', 'network');
    const image = new Blob(['png'], { type: 'image/png' });
    const voice = new Blob(['wav'], { type: 'audio/wav' });
    first.box.add({ id: 'img', type: 'image', file: image, conversation: chat, senderId: 'me', senderName: 'Me' });
    await settle();
    // The image went up; sending its message met no connection. The recording waits behind it, not uploaded.
    expect(server.uploads()).toBe(1);
    first.box.add({ id: 'voice', type: 'voice', file: voice, conversation: chat, senderId: 'me', senderName: 'Me' });
    await settle();
    expect(server.uploads()).toBe(1);
    first.close();

    const reloaded = openTab();
    expect(reloaded.box.snapshot().map((e) => [e.id, e.url])).toEqual([['img', '/api/files/chat/a_b/1']]);
    await settle();
    expect(server.uploads()).toBe(1);
    expect(server.stored.map((m) => [m.id, m.content])).toEqual([['img', '/api/files/chat/a_b/1']]);
  });

  it('drops a message the socket already delivered (ack) without sending it', async () => {
    const { box } = openTab();
    server.failNext('send', 'network');
    box.add(text('m1'));
    await settle();
    box.ack('m1');
    expect(box.snapshot()).toEqual([]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(server.sends).toEqual(['m1']);
  });

  it('takes back a message: dropped before it is sent, deleted for everyone when it was on its way', async () => {
    server = fakeChatServer({ latencyMs: 50 });
    vi.stubGlobal('fetch', server.fetch);
    const { box, hooks } = openTab();
    box.add(text('m1'));
    box.add(text('m2'));
    await vi.advanceTimersByTimeAsync(10);
    // m1 is on its way, m2 waits its turn.
    box.cancel('m2');
    box.cancel('m1');
    expect(box.snapshot()).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(server.sends).toEqual(['m1']);
    expect(server.stored).toEqual([expect.objectContaining({ id: 'm1', content: '', deletedAt: expect.any(String) })]);
    // The history hears of it as the server has it now: deleted.
    expect(hooks.onSent).toHaveBeenCalledWith(expect.objectContaining({ id: 'm1', deletedAt: expect.any(String) }));
    expect(hooks.onFailed).not.toHaveBeenCalled();
    expect(localStorage.getItem('studybuddy.outbox.me')).toBeNull();
  });

  it('tells its subscribers about every change', async () => {
    const { box } = openTab();
    const seen: string[][] = [];
    box.subscribe(() => seen.push(box.snapshot().map((e) => `${e.id}:${e.status}`)));
    box.add(text('m1'));
    await settle();
    expect(seen).toEqual([['m1:pending'], []]);
  });
});
