import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatList, ChatMessage, ConversationRef, MessagePage, UnreadCounts } from '@studybuddy/shared/chat';
import { filePathOfUrl } from '@studybuddy/shared/files';
import type { GroupList } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import type { RealtimeEvent, SinceResult } from '@studybuddy/shared/realtime';
import { messages, storedFiles } from '../../db/schema.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import type { TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';
import {
  chatCast,
  chatRef,
  friends,
  get,
  history,
  markRead,
  pngBytes,
  post,
  twoInstanceCast,
  upload,
  wavBytes,
} from './chat.test-kit.ts';
import { deleteMessageAsModerator } from './messages.service.ts';

/** Issue 24 point 4: a student deletes their own messages for everyone and edits their texts for 15 minutes. */

const base = (ref: ConversationRef) => `/api/${ref.kind === 'chat' ? 'chats' : 'groups'}/${encodeURIComponent(ref.id)}`;

describe('editing and deleting one’s own messages', () => {
  let t: TestApp;
  let baseUrl: string;
  let ada: TestUser;
  let bob: TestUser;
  let cal: TestUser;
  let eve: TestUser;
  const cast = chatCast();
  const { sockets, socketOf } = cast;
  beforeAll(() => {
    ({ t, baseUrl, ada, bob, cal, eve } = cast);
  });

  const remove = (user: TestUser, ref: ConversationRef, messageId: string) =>
    t.app.inject({
      method: 'DELETE',
      url: `${base(ref)}/messages/${encodeURIComponent(messageId)}`,
      headers: { cookie: user.cookie },
    });
  const edit = (user: TestUser, ref: ConversationRef, messageId: string, content: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `${base(ref)}/messages/${encodeURIComponent(messageId)}`,
      headers: { cookie: user.cookie },
      payload: { content },
    });
  const send = async (user: TestUser, ref: ConversationRef, content: string, type?: 'image' | 'voice') => {
    const res = await post(t.app, user, ref, { content, ...(type ? { type } : {}) });
    expect(res.statusCode).toBe(201);
    return res.json().message as ChatMessage;
  };
  const page = async (user: TestUser, ref: ConversationRef) =>
    ((await history(t.app, user, ref)).json() as MessagePage).messages;
  const search = async (user: TestUser, q: string) =>
    ((await get(t.app, user, `/api/search?q=${encodeURIComponent(q)}`)).json() as { messages: { id: string }[] })
      .messages;
  const rowOf = async (id: string) => (await t.app.ctx.db.select().from(messages).where(eq(messages.id, id)))[0];
  const chatOf = async (user: TestUser, friend: TestUser) =>
    ((await get(t.app, user, '/api/chats')).json() as ChatList).chats.find((c) => c.friendId === friend.id);
  /** Moves a message's sending time back (the edit window is the database's clock). */
  const age = (id: string, minutes: number) =>
    t.app.ctx.db
      .update(messages)
      .set({ createdAt: sql`now() - make_interval(mins => ${minutes})` })
      .where(eq(messages.id, id));

  it('deletes a text for everyone: live to the friend and every tab of the sender, and after a reload', async () => {
    const ref = chatRef(ada, bob);
    const adaTab1 = await socketOf(ada);
    const adaTab2 = await socketOf(ada);
    const bobTab = await socketOf(bob);
    const kept = await send(ada, ref, 'first words stay');
    const sent = await send(ada, ref, 'regrettable zanzibar remark');
    expect((await search(bob, 'zanzibar')).map((m) => m.id)).toEqual([sent.id]);

    const res = await remove(ada, ref, sent.id);
    expect(res.statusCode).toBe(200);
    const deleted = res.json().message as ChatMessage;
    expect(deleted).toMatchObject({ id: sent.id, cursor: sent.cursor, content: '', type: 'text', senderId: ada.id });
    expect(deleted.deletedAt).toEqual(expect.any(String));

    for (const tab of [bobTab, adaTab1, adaTab2]) {
      const event = await tab.waitForEvent('message.updated', (e) => e.message.id === sent.id);
      expect(event.message).toEqual(deleted);
      expect(event.cursor).toBeGreaterThan(sent.cursor);
      // The lists' last message says so too.
      expect(
        await tab.waitForEvent('chat.updated', (e) => e.conversation.id === ref.id && e.last !== undefined),
      ).toMatchObject({ last: { lastMessage: MSG.chat.messageDeleted, lastMessageSender: ada.id } });
    }
    // After a reload: the placeholder in place, for both.
    for (const user of [ada, bob]) {
      const shown = await page(user, ref);
      expect(shown.find((m) => m.id === kept.id)).toMatchObject({ content: 'first words stay' });
      expect(shown.find((m) => m.id === sent.id)).toEqual(deleted);
    }
    expect(await chatOf(bob, ada)).toMatchObject({ lastMessage: MSG.chat.messageDeleted });
    // Gone from search, and from the database row (its words with it).
    expect(await search(bob, 'zanzibar')).toEqual([]);
    expect(await search(ada, 'regrettable')).toEqual([]);
    expect((await rowOf(sent.id))!.content).toBe('');
    // Deleting it again answers the same, and tells nobody anything new.
    const again = await remove(ada, ref, sent.id);
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toEqual(deleted);
    // Retrying its send (an outbox that never heard the answer) gets the deleted message, never the old text back.
    const retry = await post(t.app, ada, ref, { id: sent.id, content: 'regrettable zanzibar remark' });
    expect(retry.statusCode).toBe(200);
    expect(retry.json().message).toEqual(deleted);
  });

  it('refuses to delete or edit another student’s message, and hints nothing about messages one cannot see', async () => {
    const ref = chatRef(ada, bob);
    const sent = await send(ada, ref, 'only Ada may change this');
    // The friend sees it but it is not theirs.
    for (const res of [await remove(bob, ref, sent.id), await edit(bob, ref, sent.id, 'hacked')]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.chat.notYourMessage);
    }
    // A stranger: the conversation's own refusal, the same whether the message exists or not.
    const strangers = [
      await remove(eve, ref, sent.id),
      await remove(eve, ref, randomUUID()),
      await edit(eve, ref, sent.id, 'hacked'),
    ];
    for (const res of strangers) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(MSG.chat.notFriends);
    }
    // Through a conversation of their own: 404, as for an id that does not exist.
    const own = chatRef(bob, cal);
    for (const res of [await remove(bob, own, sent.id), await remove(bob, own, randomUUID())]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.message).toBe(MSG.chat.messageNotFound);
    }
    expect((await edit(cal, own, sent.id, 'hacked')).statusCode).toBe(404);
    // Not signed in.
    expect((await t.app.inject({ method: 'DELETE', url: `${base(ref)}/messages/${sent.id}` })).statusCode).toBe(401);
    expect(await rowOf(sent.id)).toMatchObject({
      content: 'only Ada may change this',
      deletedAt: null,
      editedAt: null,
    });
  });

  it('edits a text within 15 minutes: marked edited, live to every tab, search updated', async () => {
    const ref = chatRef(ada, bob);
    const adaTab1 = await socketOf(ada);
    const adaTab2 = await socketOf(ada);
    const bobTab = await socketOf(bob);
    const sent = await send(ada, ref, 'meet at the library tomorow');
    await age(sent.id, 14);

    const res = await edit(ada, ref, sent.id, '  meet at the observatory tomorrow \u0000 ');
    expect(res.statusCode).toBe(200);
    const edited = res.json().message as ChatMessage;
    expect(edited).toMatchObject({ id: sent.id, cursor: sent.cursor, content: 'meet at the observatory tomorrow' });
    expect(edited.editedAt).toEqual(expect.any(String));
    expect(edited.deletedAt).toBeUndefined();
    for (const tab of [bobTab, adaTab1, adaTab2]) {
      expect((await tab.waitForEvent('message.updated', (e) => e.message.id === sent.id)).message).toEqual(edited);
      expect(
        await tab.waitForEvent('chat.updated', (e) => e.conversation.id === ref.id && e.last !== undefined),
      ).toMatchObject({ last: { lastMessage: 'meet at the observatory tomorrow' } });
    }
    expect((await page(bob, ref)).find((m) => m.id === sent.id)).toEqual(edited);
    expect(await chatOf(bob, ada)).toMatchObject({ lastMessage: 'meet at the observatory tomorrow' });
    expect((await search(bob, 'observatory')).map((m) => m.id)).toEqual([sent.id]);
    expect(await search(bob, 'library')).toEqual([]);
    // The same text again changes nothing.
    expect((await edit(ada, ref, sent.id, 'meet at the observatory tomorrow')).json().message).toEqual(edited);
  });

  it('refuses editing after 15 minutes with a text that says so, and what is not an editable text', async () => {
    const ref = chatRef(ada, bob);
    const old = await send(ada, ref, 'sent a while ago');
    await age(old.id, 16);
    const late = await edit(ada, ref, old.id, 'too late');
    expect(late.statusCode).toBe(403);
    expect(late.json().error.message).toBe(MSG.chat.editWindowOver);
    expect(MSG.chat.editWindowOver).toMatch(/15 minutes/);
    expect((await rowOf(old.id))!.content).toBe('sent a while ago');
    // Deleting is not limited in time.
    expect((await remove(ada, ref, old.id)).statusCode).toBe(200);
    const gone = await edit(ada, ref, old.id, 'back again');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe(MSG.chat.alreadyDeleted);

    const fresh = await send(ada, ref, 'fresh');
    for (const [content, message] of [
      ['', MSG.chat.emptyMessage],
      ['   ', MSG.chat.emptyMessage],
      ['x'.repeat(4001), MSG.chat.tooLong],
      [42, MSG.chat.emptyMessage],
    ] as const) {
      const res = await edit(ada, ref, fresh.id, content);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(message);
    }
    const upload1 = await upload(t.app, ada, ref, 'image', await pngBytes(), 'image/png');
    const image = await send(ada, ref, upload1.json().url, 'image');
    const notText = await edit(ada, ref, image.id, 'a caption');
    expect(notText.statusCode).toBe(400);
    expect(notText.json().error.message).toBe(MSG.chat.onlyTextEditable);
  });

  it('deletes pictures and voice messages with their files (storage and quota), unless another message has it', async () => {
    const ref = chatRef(ada, bob);
    const stored = async (url: string) => t.app.ctx.storage.head(filePathOfUrl(url)!);
    const quotaRows = async (url: string) =>
      (
        await t.app.ctx.db
          .select()
          .from(storedFiles)
          .where(eq(storedFiles.path, filePathOfUrl(url)!))
      ).length;
    const imageUrl = (await upload(t.app, ada, ref, 'image', await pngBytes(80, 60), 'image/png')).json().url as string;
    const voiceUrl = (await upload(t.app, ada, ref, 'voice', wavBytes(1), 'audio/wav')).json().url as string;
    const image = await send(ada, ref, imageUrl, 'image');
    const twice = await send(ada, ref, imageUrl, 'image');
    const voice = await send(ada, ref, voiceUrl, 'voice');
    expect(await stored(imageUrl)).not.toBeNull();
    expect(await quotaRows(voiceUrl)).toBe(1);
    expect((await get(t.app, bob, voiceUrl)).statusCode).toBe(200);

    expect((await remove(ada, ref, voice.id)).json().message).toMatchObject({ type: 'voice', content: '' });
    expect(await stored(voiceUrl)).toBeNull();
    expect(await quotaRows(voiceUrl)).toBe(0);
    expect((await get(t.app, bob, voiceUrl)).statusCode).toBe(404);
    expect(await chatOf(bob, ada)).toMatchObject({ lastMessage: MSG.chat.messageDeleted });

    // The same picture sent twice: the file stays until the last message carrying it goes.
    await remove(ada, ref, image.id);
    expect(await stored(imageUrl)).not.toBeNull();
    expect((await get(t.app, bob, imageUrl)).statusCode).toBe(200);
    await remove(ada, ref, twice.id);
    expect(await stored(imageUrl)).toBeNull();
    expect(await quotaRows(imageUrl)).toBe(0);
    const shown = await page(bob, ref);
    expect(shown.find((m) => m.id === image.id)).toMatchObject({ type: 'image', content: '' });
  });

  it('keeps unread counts right: a deleted message the friend had not read no longer counts', async () => {
    const ref = chatRef(bob, cal);
    await markRead(t.app, cal, ref);
    const calTab = await socketOf(cal);
    await send(bob, ref, 'one');
    const two = await send(bob, ref, 'two');
    await calTab.waitForEvent('unread.changed', (e) => e.conversation.id === ref.id && e.count === 2);
    await remove(bob, ref, two.id);
    expect(
      await calTab.waitForEvent('unread.changed', (e) => e.conversation.id === ref.id && e.count === 1),
    ).toMatchObject({ friendId: bob.id });
    expect(((await get(t.app, cal, '/api/chats/unread')).json() as UnreadCounts).byFriend[bob.id]).toBe(1);
    expect((await chatOf(cal, bob))!.unread).toBe(1);
    // A deleted message the reader had read changes nothing for them; their own count is untouched.
    await markRead(t.app, cal, ref);
    const three = await send(cal, ref, 'three');
    await remove(cal, ref, three.id);
    expect(((await get(t.app, cal, '/api/chats/unread')).json() as UnreadCounts).byFriend[bob.id]).toBeUndefined();
    expect(((await get(t.app, bob, '/api/chats/unread')).json() as UnreadCounts).byFriend[cal.id]).toBeUndefined();
  });

  it('works the same in groups: members hear it, the group list shows it, its unread counts follow', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: ada.cookie },
      payload: { name: 'Study trio', description: '', memberIds: [bob.id, cal.id] },
    });
    const ref: ConversationRef = { kind: 'group', id: created.json().id as string };
    const bobTab = await socketOf(bob);
    const adaTab = await socketOf(ada);
    const calTab = await socketOf(cal);
    const first = await send(ada, ref, 'group hello');
    const second = await send(ada, ref, 'group typo teh');

    const edited = await edit(ada, ref, second.id, 'group typo the');
    expect(edited.statusCode).toBe(200);
    for (const tab of [bobTab, adaTab, calTab]) {
      await tab.waitForEvent('message.updated', (e) => e.message.id === second.id && e.message.editedAt !== undefined);
    }
    expect((await remove(bob, ref, second.id)).statusCode).toBe(403);
    expect((await remove(eve, ref, second.id)).json().error.message).toBe(MSG.groups.notMember);

    const groupOf = async (user: TestUser) =>
      ((await get(t.app, user, '/api/groups')).json() as GroupList).groups.find((g) => g.id === ref.id);
    expect(await groupOf(bob)).toMatchObject({ lastMessage: 'group typo the', unread: 2 });
    await remove(ada, ref, second.id);
    for (const tab of [bobTab, adaTab, calTab]) {
      await tab.waitForEvent('message.updated', (e) => e.message.id === second.id && e.message.deletedAt !== undefined);
    }
    await bobTab.waitForEvent('unread.changed', (e) => e.conversation.id === ref.id && e.count === 1);
    await bobTab.waitForEvent(
      'chat.updated',
      (e) => e.conversation.id === ref.id && e.last?.lastMessage === MSG.chat.messageDeleted,
    );
    expect(await groupOf(bob)).toMatchObject({ lastMessage: MSG.chat.messageDeleted, unread: 1 });
    // An older message deleted leaves the last message alone.
    await remove(ada, ref, first.id);
    expect(await groupOf(cal)).toMatchObject({ lastMessage: MSG.chat.messageDeleted, unread: 0 });
    expect((await page(cal, ref)).map((m) => m.deletedAt !== undefined)).toEqual([true, true]);
  });

  it('sends changes a reconnecting tab missed with its resync (after a message’s cursor)', async () => {
    const ref = chatRef(ada, cal);
    const before = await send(ada, ref, 'before the gap');
    const typo = await send(ada, ref, 'edited in the gap');
    const since = async (cursor: number) =>
      (await get(t.app, cal, `/api/realtime/since?cursor=${cursor}`)).json() as SinceResult;
    await edit(ada, ref, typo.id, 'edited during the gap');
    await remove(ada, ref, before.id);
    const missed = await since(typo.cursor);
    // (On PostgreSQL a resync also looks a few seconds back for late commits: messages clients already hold.)
    const ofChat = <K extends 'message.created' | 'message.updated'>(r: SinceResult, type: K) =>
      r.events.filter(
        (e): e is Extract<RealtimeEvent, { type: K }> => e.type === type && e.message.conversation.id === ref.id,
      );
    const changesIn = (r: SinceResult) => ofChat(r, 'message.updated');
    expect(changesIn(missed).map((e) => [e.type, e.message.id])).toEqual([
      ['message.updated', typo.id],
      ['message.updated', before.id],
    ]);
    expect(missed.cursor).toBeGreaterThan(typo.cursor);
    // From that cursor on, nothing new; from before both messages, both as they are now.
    const again = changesIn(await since(missed.cursor));
    expect(again.filter((e) => !changesIn(missed).some((m) => JSON.stringify(m) === JSON.stringify(e)))).toEqual([]);
    const all = await since(before.cursor - 1);
    expect(ofChat(all, 'message.created').map((e) => e.message)).toEqual([
      expect.objectContaining({ id: before.id, content: '', deletedAt: expect.any(String) }),
      expect.objectContaining({ id: typo.id, content: 'edited during the gap', editedAt: expect.any(String) }),
    ]);
    // The socket's resync carries the same, and ends at the newest change.
    const tab = await WsTestClient.connect(baseUrl, cal.cookie, {}, typo.cursor);
    sockets.push(tab);
    expect(await tab.waitForEvent('message.updated', (e) => e.message.id === before.id)).toMatchObject({
      message: { deletedAt: expect.any(String) },
    });
    expect(await tab.waitFor((f) => f.type === 'resync.done')).toMatchObject({ cursor: missed.cursor });
  });

  it('lets a student who blocked the other take back their messages in the read-only chat, not edit them', async () => {
    const [ivy, jon] = await friends(t.app, 2, ['Ivy', 'Jon']);
    const ref = chatRef(ivy, jon);
    const mine = await send(ivy, ref, 'said before blocking');
    const theirs = await send(jon, ref, 'evidence for a report');
    const blocked = await t.app.inject({
      method: 'POST',
      url: '/api/social/blocks',
      headers: { cookie: ivy.cookie },
      payload: { userId: jon.id },
    });
    expect(blocked.statusCode).toBeLessThan(300);
    expect((await edit(ivy, ref, mine.id, 'changed')).statusCode).toBe(403);
    expect((await remove(ivy, ref, mine.id)).statusCode).toBe(200);
    // The blocked student can no longer reach the chat, nor take back what the blocker may report.
    expect((await remove(jon, ref, theirs.id)).statusCode).toBe(403);
    expect((await remove(ivy, ref, theirs.id)).statusCode).toBe(403);
    expect((await rowOf(theirs.id))!.content).toBe('evidence for a report');
  });

  it('lets a moderator delete any message the same way (deleteMessageAsModerator)', async () => {
    const ref = chatRef(bob, cal);
    const bobTab = await socketOf(bob);
    const sent = await send(cal, ref, 'something a moderator removes');
    const before = await deleteMessageAsModerator(t.app.ctx, sent.id, 'moderator-id');
    expect(before).toMatchObject({ id: sent.id, content: 'something a moderator removes' });
    await bobTab.waitForEvent('message.updated', (e) => e.message.id === sent.id && e.message.deletedAt !== undefined);
    expect((await page(bob, ref)).find((m) => m.id === sent.id)).toMatchObject({ content: '' });
    expect(await deleteMessageAsModerator(t.app.ctx, sent.id)).toBeNull();
    expect(await deleteMessageAsModerator(t.app.ctx, randomUUID())).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('edits and deletions across two instances on PostgreSQL', () => {
  const cast = twoInstanceCast();

  it('a change made through instance 1 reaches the friend and the sender’s other tab on instance 2', async () => {
    const { one, ada, bob } = cast;
    const { adaOnTwo, bobOnTwo } = await cast.socketsOnTwo();
    const ref = chatRef(ada, bob);
    const sent = (await post(one.app, ada, ref, { content: 'across instances' })).json().message as ChatMessage;
    const patch = await one.app.inject({
      method: 'PATCH',
      url: `${base(ref)}/messages/${sent.id}`,
      headers: { cookie: ada.cookie },
      payload: { content: 'across instances, edited' },
    });
    expect(patch.statusCode).toBe(200);
    for (const tab of [bobOnTwo, adaOnTwo]) {
      expect(await tab.waitForEvent('message.updated', (e) => e.message.editedAt !== undefined)).toMatchObject({
        message: { id: sent.id, content: 'across instances, edited' },
      });
    }
    const del = await one.app.inject({
      method: 'DELETE',
      url: `${base(ref)}/messages/${sent.id}`,
      headers: { cookie: ada.cookie },
    });
    expect(del.statusCode).toBe(200);
    for (const tab of [bobOnTwo, adaOnTwo]) {
      await tab.waitForEvent('message.updated', (e) => e.message.id === sent.id && e.message.deletedAt !== undefined);
    }
  });
});
