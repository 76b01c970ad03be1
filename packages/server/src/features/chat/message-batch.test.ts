import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import type { ConversationRef, SendMessageInput } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import type { RealtimeEvent } from '@studybuddy/shared/realtime';
import { chats, groups, messages } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { listChats, unreadCounts } from './chat.service.ts';
import { chatRef, friends } from './chat.test-kit.ts';
import { markRead, type MessagesService } from './messages.service.ts';
import { UNREAD_COUNT_CAP } from './read-state.repository.ts';

/** Group commit of messages: what arrives together is written in one statement, each message still on its own. */
describe('messages written in batches', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let cy: TestUser;
  let eve: TestUser;
  const events: RealtimeEvent[] = [];
  beforeAll(async () => {
    // Without the per-minute limit, whose counter (one write per send) would spread the sends over several turns.
    t = await createTestApp({ RATE_LIMITS: 'false' });
    [ada, bob, cy] = await friends(t.app, 3, ['Ada', 'Bob', 'Cy']);
    eve = await createUser(t.app, { name: 'Eve' });
    t.app.ctx.realtime.bus.subscribe((e) => {
      if ('event' in e) events.push(e.event);
    });
  });
  afterAll(() => t.close());

  const ctx = () => t.app.ctx;
  // The app's messages service (chat.feature.ts puts it on the registry): the send path the socket's `send` op calls.
  const service = () => ctx().registry.chatMessages as MessagesService;
  const sendMessage = (...args: Parameters<MessagesService['send']>) => service().send(...args);
  const batchSizes = () => service().batchSizes();
  const text = (content: string, id = randomUUID()): SendMessageInput => ({ id, type: 'text', content });
  /** Sends all in the same turn of the event loop, so they share a batch; settles each. */
  const sendTogether = (sends: [TestUser, ConversationRef, SendMessageInput][]) => {
    const before = batchSizes().length;
    const settled = Promise.allSettled(sends.map(([u, ref, m]) => sendMessage(u.id, ref, m)));
    return settled.then((results) => ({ results, batches: batchSizes().slice(before) }));
  };
  const stored = (ids: string[]) => ctx().db.select().from(messages).where(inArray(messages.id, ids));

  it('stores a batch in order, keeps the chat’s last message and the friend’s unread count right', async () => {
    const ref = chatRef(ada, bob);
    const inputs = Array.from({ length: 12 }, (_, i) => text(`batch ${i}`));
    events.length = 0;
    const { results, batches } = await sendTogether(inputs.map((m) => [ada, ref, m]));
    expect(batches[0]).toBe(12);
    const acks = results.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
    expect(acks.every((a) => a?.created)).toBe(true);
    // Cursors follow the order the messages arrived in.
    const cursors = acks.map((a) => a!.message.cursor);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    const rows = await stored(inputs.map((m) => m.id));
    expect(rows).toHaveLength(12);
    const [chat] = await ctx().db.select().from(chats).where(eq(chats.id, ref.id));
    expect(chat).toMatchObject({ lastMessage: 'batch 11', lastMessageSender: ada.id, lastMessageCursor: cursors[11] });
    // Every message reached both; the friend's count after the batch is the one derived from the messages.
    const created = events.filter((e) => e.type === 'message.created');
    expect(created.map((e) => e.type === 'message.created' && e.message.id)).toEqual(inputs.map((m) => m.id));
    const unread = events.filter((e) => e.type === 'unread.changed');
    expect(unread).toEqual([{ type: 'unread.changed', conversation: ref, friendId: ada.id, count: 12 }]);
    expect((await unreadCounts(ctx(), bob.id)).byFriend[ada.id]).toBe(12);
  });

  it('counts unread up to the cap the badge needs (99+), in the batch write and in every list alike', async () => {
    const [dan, fay] = await friends(t.app, 2, ['Dan', 'Fay']);
    const ref = chatRef(dan, fay);
    const sixty = (label: string) =>
      Array.from({ length: 60 }, (_, i): [TestUser, ConversationRef, SendMessageInput] => [
        dan,
        ref,
        text(`${label} ${i}`),
      ]);
    expect((await sendTogether(sixty('first'))).batches[0]).toBe(60);
    events.length = 0;
    const second = await sendTogether(sixty('second'));
    // 120 unread: the count stops at the cap, whether counted before the batch (60) plus the batch or from scratch.
    const unread = events.filter((e) => e.type === 'unread.changed');
    expect(unread).toEqual([{ type: 'unread.changed', conversation: ref, friendId: dan.id, count: UNREAD_COUNT_CAP }]);
    expect((await unreadCounts(ctx(), fay.id)).byFriend[dan.id]).toBe(UNREAD_COUNT_CAP);
    expect((await listChats(ctx(), fay.id)).chats.find((c) => c.friendId === dan.id)?.unread).toBe(UNREAD_COUNT_CAP);
    // Read up to the second batch's 10th message, 50 are left: below the cap the count is exact again.
    const tenth = second.results[9];
    if (tenth?.status !== 'fulfilled') throw new Error('the 10th message was not stored');
    expect(await markRead(ctx(), fay.id, ref, tenth.value.message.cursor)).toEqual({
      lastRead: tenth.value.message.cursor,
      unread: 50,
    });
  });

  it('counts both directions when both friends write in the same batch', async () => {
    const ref = chatRef(bob, cy);
    events.length = 0;
    await sendTogether([
      [bob, ref, text('hi Cy')],
      [cy, ref, text('hi Bob')],
      [bob, ref, text('how are you')],
    ]);
    const unread = events.filter((e) => e.type === 'unread.changed');
    expect(unread).toEqual(
      expect.arrayContaining([
        { type: 'unread.changed', conversation: ref, friendId: bob.id, count: 2 },
        { type: 'unread.changed', conversation: ref, friendId: cy.id, count: 1 },
      ]),
    );
    expect((await unreadCounts(ctx(), cy.id)).byFriend[bob.id]).toBe(2);
    expect((await unreadCounts(ctx(), bob.id)).byFriend[cy.id]).toBe(1);
  });

  it('a repeated id in one batch is stored once and both sends are acknowledged with it', async () => {
    const ref = chatRef(ada, cy);
    const id = randomUUID();
    const { results, batches } = await sendTogether([
      [ada, ref, text('once', id)],
      [ada, ref, text('once', id)],
      [cy, ref, text('stolen id', id)],
    ]);
    expect(batches[0]).toBe(3);
    const [first, second, third] = results;
    expect(first).toMatchObject({ status: 'fulfilled', value: { created: true, message: { id, content: 'once' } } });
    expect(second).toMatchObject({ status: 'fulfilled', value: { created: false, message: { id } } });
    if (first?.status === 'fulfilled' && second?.status === 'fulfilled') {
      expect(second.value.message).toEqual(first.value.message);
    }
    // Another sender's message under the same id is refused, as a retry would be.
    expect(third).toMatchObject({ status: 'rejected', reason: { statusCode: 409, message: MSG.chat.idConflict } });
    expect(await stored([id])).toHaveLength(1);
  });

  it('refuses a sender who may not write without failing the others of the batch', async () => {
    const { results } = await sendTogether([
      [ada, chatRef(ada, bob), text('fine')],
      [eve, chatRef(ada, eve), text('not friends')],
      [ada, chatRef(ada, eve), text('not friends either')],
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { created: true } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { statusCode: 403, message: MSG.chat.notFriends } });
    expect(results[2]).toMatchObject({ status: 'rejected', reason: { statusCode: 403, message: MSG.chat.notFriends } });
  });

  it('a row the database refuses fails alone: the others are stored once and acknowledged, nothing of it is', async () => {
    const db = ctx().db;
    await db.execute(sql`create function test_refuse_boom() returns trigger language plpgsql as $$
      begin if new.content = 'boom' then raise exception 'refused by test trigger'; end if; return new; end $$`);
    await db.execute(
      sql`create trigger test_refuse_boom before insert on messages for each row execute function test_refuse_boom()`,
    );
    try {
      const ref = chatRef(ada, bob);
      const inputs = [text('before boom'), text('boom'), text('after boom')];
      const { results, batches } = await sendTogether(inputs.map((m) => [ada, ref, m]));
      // The batch of three failed as a whole, then each was written alone.
      expect(batches).toEqual([3, 1, 1, 1]);
      expect(results[0]).toMatchObject({ status: 'fulfilled', value: { created: true } });
      expect(results[1]).toMatchObject({ status: 'rejected' });
      expect(results[2]).toMatchObject({ status: 'fulfilled', value: { created: true } });
      const rows = await stored(inputs.map((m) => m.id));
      expect(rows.map((r) => r.content).sort()).toEqual(['after boom', 'before boom']);
      const [chat] = await db.select().from(chats).where(eq(chats.id, ref.id));
      expect(chat?.lastMessage).toBe('after boom');
    } finally {
      await db.execute(sql`drop trigger test_refuse_boom on messages`);
      await db.execute(sql`drop function test_refuse_boom()`);
    }
  });

  it('writes group messages of a batch to every member and moves the group’s last message', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: ada.cookie },
      payload: { name: 'Batch group', memberIds: [bob.id, cy.id] },
    });
    const ref: ConversationRef = { kind: 'group', id: created.json().id };
    events.length = 0;
    const { results } = await sendTogether([
      [ada, ref, text('g1')],
      [bob, chatRef(ada, bob), text('to Ada')],
      [cy, ref, text('g2')],
      [eve, ref, text('not a member')],
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    expect(results[3]).toMatchObject({ reason: { statusCode: 403, message: MSG.groups.notMember } });
    const [group] = await ctx().db.select().from(groups).where(eq(groups.id, ref.id));
    expect(group).toMatchObject({ lastMessage: 'g2', lastMessageSender: cy.id });
    expect(events.filter((e) => e.type === 'message.created').length).toBe(3);
  });

  it('stores text with lone surrogates and NUL characters instead of failing', async () => {
    const ref = chatRef(ada, bob);
    const result = await sendMessage(ada.id, ref, text('half \uD83D emoji\u0000!'));
    expect(result.message.content).toBe('half \uFFFD emoji!');
    await expect(sendMessage(ada.id, ref, text('\u0000'))).rejects.toMatchObject({
      statusCode: 400,
      message: MSG.chat.emptyMessage,
    });
  });
});
