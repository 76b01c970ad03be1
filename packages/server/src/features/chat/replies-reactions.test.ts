import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import JSZip from 'jszip';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ConversationRef, MessagePage } from '@studybuddy/shared/chat';
import { QUICK_REACTIONS } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import type { SinceResult } from '@studybuddy/shared/realtime';
import { messageReactions, messages } from '../../db/schema.ts';
import type { TestApp } from '../../test/test-app.ts';
import { exportArchive } from '../data-export/data-export.service.ts';
import type { TestUser } from '../../test/users.ts';
import { REACTIONS_PER_MINUTE } from './chat.routes.ts';
import { accessSql } from './conversation-access.ts';
import { messagesSince } from './conversation.repository.ts';
import { chatCast, chatRef, friends, get, history, pngBytes, post, twoInstanceCast, upload } from './chat.test-kit.ts';
import { deleteMessageAsModerator } from './messages.service.ts';

/**
 * Issue 30 points 1 and 2: replies quote the message they answer (of the same conversation only), reactions are one
 * of a bounded set of emoji once per student, live in every tab; neither tells anything of a conversation the student
 * cannot read, and both follow blocks, deletions, the data download and account deletion.
 */

const base = (ref: ConversationRef) => `/api/${ref.kind === 'chat' ? 'chats' : 'groups'}/${encodeURIComponent(ref.id)}`;

type App2 = TestApp['app'];

const reactOn = (app: App2, user: TestUser, ref: ConversationRef, messageId: string, emoji: unknown, reacted = true) =>
  app.inject({
    method: 'POST',
    url: `${base(ref)}/messages/${encodeURIComponent(messageId)}/reactions`,
    headers: { cookie: user.cookie },
    payload: { emoji, reacted },
  });

const replyIn = (app: App2, user: TestUser, ref: ConversationRef, replyTo: string, content = 'a reply') =>
  post(app, user, ref, { content, replyTo });

describe('replies and reactions', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let cal: TestUser;
  let eve: TestUser;
  const cast = chatCast();
  const { socketOf } = cast;
  beforeAll(() => {
    ({ t, ada, bob, cal, eve } = cast);
  });
  const send = async (user: TestUser, ref: ConversationRef, content: string) => {
    const res = await post(t.app, user, ref, { content });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().message as ChatMessage;
  };
  const page = async (user: TestUser, ref: ConversationRef, query = '') =>
    ((await history(t.app, user, ref, query)).json() as MessagePage).messages;
  const shown = async (user: TestUser, ref: ConversationRef, id: string) =>
    (await page(user, ref)).find((m) => m.id === id);
  const group = async (owner: TestUser, members: TestUser[]): Promise<ConversationRef> => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: owner.cookie },
      payload: { name: `Group ${randomUUID().slice(0, 6)}`, memberIds: members.map((m) => m.id) },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { kind: 'group', id: res.json<{ id: string }>().id };
  };
  const block = (by: TestUser, whom: TestUser) =>
    t.app.inject({
      method: 'POST',
      url: '/api/social/blocks',
      headers: { cookie: by.cookie },
      payload: { userId: whom.id },
    });
  const storedCount = async (ref: ConversationRef) =>
    (await t.app.ctx.db.select().from(messages).where(eq(messages.conversationId, ref.id))).length;

  it('a reply carries a quote of the original (sender, first line; Photo for a picture), live and after a reload', async () => {
    const ref = chatRef(ada, bob);
    const bobTab = await socketOf(bob);
    const original = await send(bob, ref, '\n  Are we meeting at the library?  \nbring the notes');
    const res = await replyIn(t.app, ada, ref, original.id, 'Yes, at 3');
    expect(res.statusCode, res.body).toBe(201);
    const reply = res.json().message as ChatMessage;
    const quote = {
      id: original.id,
      cursor: original.cursor,
      senderId: bob.id,
      senderName: 'Bob Babbage',
      type: 'text',
      excerpt: 'Are we meeting at the library?',
    };
    expect(reply.replyTo).toEqual(quote);
    expect(await shown(bob, ref, reply.id)).toEqual(reply);
    expect((await bobTab.waitForEvent('message.created', (e) => e.message.id === reply.id)).message).toEqual(reply);

    const up = await upload(t.app, bob, ref, 'image', await pngBytes(), 'image/png');
    const picture = (await post(t.app, bob, ref, { type: 'image', content: up.json<{ url: string }>().url })).json()
      .message as ChatMessage;
    const toPicture = (await replyIn(t.app, ada, ref, picture.id, 'nice')).json().message as ChatMessage;
    expect(toPicture.replyTo).toMatchObject({ id: picture.id, type: 'image', excerpt: '' });
    // Retrying a reply (same id) answers the stored one, quote included.
    const again = await post(t.app, ada, ref, { id: reply.id, content: 'Yes, at 3', replyTo: original.id });
    expect(again.statusCode).toBe(200);
    expect(again.json().message).toEqual(reply);
  });

  it('a reply to a message deleted since says so, and shows nothing of it', async () => {
    const ref = chatRef(ada, cal);
    const original = await send(cal, ref, 'something cal regrets');
    const reply = (await replyIn(t.app, ada, ref, original.id)).json().message as ChatMessage;
    expect(
      (
        await t.app.inject({
          method: 'DELETE',
          url: `${base(ref)}/messages/${original.id}`,
          headers: { cookie: cal.cookie },
        })
      ).statusCode,
    ).toBe(200);
    const quote = (await shown(ada, ref, reply.id))!.replyTo!;
    expect(quote).toEqual({ id: original.id, cursor: original.cursor, deleted: true });
    expect(JSON.stringify(await page(ada, ref))).not.toContain('regrets');
    // A moderator's deletion the same way.
    const other = await send(cal, ref, 'reported words');
    const reply2 = (await replyIn(t.app, ada, ref, other.id)).json().message as ChatMessage;
    await deleteMessageAsModerator(t.app.ctx, other.id, 'moderator');
    expect((await shown(cal, ref, reply2.id))!.replyTo).toEqual({ id: other.id, cursor: other.cursor, deleted: true });
  });

  it('refuses a reply to a message of another conversation exactly as one to a message that does not exist', async () => {
    const mine = chatRef(ada, bob);
    const theirs = chatRef(bob, cal);
    const secret = await send(cal, theirs, 'bob and cal only');
    const before = await storedCount(mine);
    const unknown = await replyIn(t.app, ada, mine, randomUUID());
    const foreign = await replyIn(t.app, ada, mine, secret.id);
    expect(unknown.statusCode).toBe(404);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    expect(foreign.json().error).toMatchObject({ message: MSG.chat.messageNotFound });
    // An outsider naming a conversation they are not in is refused whatever the message: nothing to compare.
    const outsider = await replyIn(t.app, eve, theirs, secret.id);
    const outsiderUnknown = await replyIn(t.app, eve, theirs, randomUUID());
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual(outsiderUnknown.json());
    // A group the student is not in, the same.
    const club = await group(bob, [cal]);
    const inClub = await send(cal, club, 'club talk');
    expect((await replyIn(t.app, ada, club, inClub.id)).json()).toEqual(
      (await replyIn(t.app, ada, club, randomUUID())).json(),
    );
    expect((await replyIn(t.app, ada, club, inClub.id)).statusCode).toBe(403);
    // A group message quoted into a chat, the same as unknown.
    expect((await replyIn(t.app, bob, mine, inClub.id)).json()).toEqual(unknown.json());
    expect(await storedCount(mine)).toBe(before);
  });

  it('adds and takes back reactions, once per emoji per student, live to every tab', async () => {
    const ref = chatRef(ada, bob);
    const msg = await send(bob, ref, 'react to me');
    const bobTab = await socketOf(bob);
    const adaTab = await socketOf(ada);

    const first = await reactOn(t.app, ada, ref, msg.id, '👍');
    expect(first.statusCode, first.body).toBe(200);
    const liked = first.json().message as ChatMessage;
    expect(liked.reactions).toEqual([{ emoji: '👍', users: [{ id: ada.id, name: 'Ada Lovelace' }] }]);
    for (const tab of [bobTab, adaTab]) {
      const event = await tab.waitForEvent('message.updated', (e) => e.message.id === msg.id);
      expect(event.message).toEqual(liked);
      expect(event.cursor).toBe(liked.version);
    }
    // Twice is still once.
    expect((await reactOn(t.app, ada, ref, msg.id, '👍')).json().message.reactions).toEqual(liked.reactions);
    await reactOn(t.app, bob, ref, msg.id, '👍');
    const both = (await reactOn(t.app, bob, ref, msg.id, '❤️')).json().message as ChatMessage;
    expect(both.reactions).toEqual([
      {
        emoji: '👍',
        users: [
          { id: ada.id, name: 'Ada Lovelace' },
          { id: bob.id, name: 'Bob Babbage' },
        ],
      },
      { emoji: '❤️', users: [{ id: bob.id, name: 'Bob Babbage' }] },
    ]);
    expect(both.version).toBeGreaterThan(liked.version!);
    // Clicking again takes it back.
    const back = (await reactOn(t.app, ada, ref, msg.id, '👍', false)).json().message as ChatMessage;
    expect(back.reactions).toEqual([
      { emoji: '👍', users: [{ id: bob.id, name: 'Bob Babbage' }] },
      { emoji: '❤️', users: [{ id: bob.id, name: 'Bob Babbage' }] },
    ]);
    expect((await adaTab.waitForEvent('message.updated', (e) => e.message.version === back.version)).message).toEqual(
      back,
    );
    expect(await shown(ada, ref, msg.id)).toEqual(back);
    // Every quick reaction and a picker one are allowed.
    for (const emoji of [...QUICK_REACTIONS, '🎉'])
      expect(
        (await reactOn(t.app, cal, chatRef(bob, cal), (await send(bob, chatRef(bob, cal), 'x')).id, emoji)).statusCode,
      ).toBe(200);
  });

  it('a tab that was away gets reactions in its resync', async () => {
    const ref = chatRef(ada, cal);
    const msg = await send(ada, ref, 'resync me');
    await reactOn(t.app, cal, ref, msg.id, '😂');
    const since = (await get(t.app, ada, `/api/realtime/since?cursor=${msg.cursor}`)).json() as SinceResult;
    const update = since.events.find((e) => e.type === 'message.updated' && e.message.id === msg.id);
    expect(update).toMatchObject({ message: { reactions: [{ emoji: '😂', users: [{ id: cal.id }] }] } });
    expect(since.cursor).toBeGreaterThan(msg.cursor);
  });

  it('a resync that looks back for late commits (PostgreSQL) finds a late reaction as it finds a late edit', async () => {
    // On a pool a reaction's transaction can take its change cursor, then commit after a newer message was seen:
    // the resync from that newer message looks 10 s back by when each change was made.
    const ref = chatRef(ada, cal);
    const reacted = await send(ada, ref, 'react late');
    const edited = await send(ada, ref, 'edit late');
    await reactOn(t.app, cal, ref, reacted.id, '😂');
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `${base(ref)}/messages/${encodeURIComponent(edited.id)}`,
      headers: { cookie: ada.cookie },
      payload: { content: 'edited late' },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    const newer = await send(cal, ref, 'seen first');
    // Each change kept when it was made; moved to 1 s before the newer message, so a slow machine (seconds between
    // these requests) tests the same thing.
    const moved = await t.app.ctx.db
      .update(messages)
      .set({ changedAt: sql`(select created_at from messages where id = ${newer.id}) - interval '1 second'` })
      .where(and(inArray(messages.id, [reacted.id, edited.id]), isNotNull(messages.changedAt)))
      .returning({ id: messages.id });
    expect(moved.map((r) => r.id).sort()).toEqual([reacted.id, edited.id].sort());
    const lookedBack = await messagesSince(t.app.ctx.db, accessSql(t.app.ctx), ada.id, newer.cursor, 100, true);
    const changed = lookedBack.filter((r) => r.changed).map((r) => r.id);
    expect(changed).toEqual(expect.arrayContaining([reacted.id, edited.id]));
    // Without the look-back (PGlite commits in cursor order) only what came after the cursor.
    expect(
      (await messagesSince(t.app.ctx.db, accessSql(t.app.ctx), ada.id, newer.cursor, 100, false)).filter(
        (r) => r.changed,
      ),
    ).toEqual([]);
  });

  it('refuses reactions outside the allowed set, and on messages the student cannot read, as on none at all', async () => {
    const ref = chatRef(ada, bob);
    const msg = await send(bob, ref, 'only these emoji');
    for (const emoji of ['💩', 'x', '👍🏽', '', 42, '👍👍']) {
      const res = await reactOn(t.app, ada, ref, msg.id, emoji);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(MSG.reactions.notAllowed);
    }
    const theirs = chatRef(bob, cal);
    const secret = await send(cal, theirs, 'private');
    const unknown = await reactOn(t.app, ada, ref, randomUUID(), '👍');
    const foreign = await reactOn(t.app, ada, ref, secret.id, '👍');
    expect(unknown.statusCode).toBe(404);
    expect(foreign.json()).toEqual(unknown.json());
    const outsider = await reactOn(t.app, eve, theirs, secret.id, '👍');
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual((await reactOn(t.app, eve, theirs, randomUUID(), '👍')).json());
    const club = await group(bob, [cal]);
    const inClub = await send(cal, club, 'club only');
    const nonMember = await reactOn(t.app, ada, club, inClub.id, '👍');
    expect(nonMember.statusCode).toBe(403);
    expect(nonMember.json()).toEqual((await reactOn(t.app, ada, club, randomUUID(), '👍')).json());
    // Members react in groups.
    expect((await reactOn(t.app, bob, club, inClub.id, '🙏')).statusCode).toBe(200);
    expect(await t.app.ctx.db.select().from(messageReactions).where(eq(messageReactions.messageId, secret.id))).toEqual(
      [],
    );
  });

  it('a deleted message takes its reactions and takes no more', async () => {
    const ref = chatRef(bob, cal);
    const msg = await send(bob, ref, 'soon gone');
    await reactOn(t.app, cal, ref, msg.id, '😮');
    await t.app.inject({ method: 'DELETE', url: `${base(ref)}/messages/${msg.id}`, headers: { cookie: bob.cookie } });
    expect(await t.app.ctx.db.select().from(messageReactions).where(eq(messageReactions.messageId, msg.id))).toEqual(
      [],
    );
    expect((await shown(cal, ref, msg.id))!.reactions).toBeUndefined();
    const late = await reactOn(t.app, cal, ref, msg.id, '😮');
    expect(late.statusCode).toBe(404);
    expect(late.json().error.message).toBe(MSG.chat.alreadyDeleted);
  });

  it('follows blocks: the blocked pair can neither react nor reply in their chat; in a shared group, as sending', async () => {
    const [ivy, jon, kim] = await friends(t.app, 3, ['Ivy', 'Jon', 'Kim']);
    const ref = chatRef(ivy, jon);
    const ivys = await send(ivy, ref, 'before the block');
    const club = await group(kim, [ivy, jon]);
    const inClub = await send(ivy, club, 'ivy in the club');
    expect((await block(ivy, jon)).statusCode).toBeLessThan(300);
    const jonReacts = await reactOn(t.app, jon, ref, ivys.id, '👍');
    expect(jonReacts.statusCode).toBe(403);
    expect(jonReacts.json()).toEqual((await post(t.app, jon, ref, { content: 'hi' })).json());
    expect((await replyIn(t.app, jon, ref, ivys.id)).statusCode).toBe(403);
    // The blocker's chat is read-only: no reactions from them either.
    expect((await reactOn(t.app, ivy, ref, ivys.id, '👍')).statusCode).toBe(403);
    // A group they share still takes both, as it takes their messages.
    expect((await post(t.app, jon, club, { content: 'jon in the club' })).statusCode).toBe(201);
    expect((await reactOn(t.app, jon, club, inClub.id, '👍')).statusCode).toBe(200);
    expect((await replyIn(t.app, jon, club, inClub.id)).statusCode).toBe(201);
  });

  it('puts the student’s reactions in their data download, and takes them with the account', async () => {
    const [lea, max] = await friends(t.app, 2, ['Lea Leaving', 'Max Staying']);
    const ref = chatRef(lea, max);
    const msg = await send(max, ref, 'react then leave');
    const club = await group(max, [lea]);
    const inClub = await send(max, club, 'club message');
    await reactOn(t.app, lea, ref, msg.id, '👍');
    await reactOn(t.app, lea, club, inClub.id, '🎉');
    await reactOn(t.app, max, club, inClub.id, '🎉');
    const chunks: Buffer[] = [];
    for await (const c of exportArchive(t.app.ctx, lea.id)) chunks.push(c as Buffer);
    const zip = await JSZip.loadAsync(Buffer.concat(chunks));
    const listed = JSON.parse(await zip.file('reactions.json')!.async('string')) as unknown[];
    expect(listed).toEqual([
      {
        emoji: '👍',
        messageId: msg.id,
        conversation: { kind: 'chat', name: 'Max Staying' },
        reactedAt: expect.any(String),
      },
      {
        emoji: '🎉',
        messageId: inClub.id,
        conversation: { kind: 'group', name: expect.any(String) },
        reactedAt: expect.any(String),
      },
    ]);

    const gone = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: { cookie: lea.cookie },
      payload: { password: 'password123' },
    });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(await t.app.ctx.db.select().from(messageReactions).where(eq(messageReactions.userId, lea.id))).toEqual([]);
    expect((await shown(max, club, inClub.id))!.reactions).toEqual([
      { emoji: '🎉', users: [{ id: max.id, name: 'Max Staying' }] },
    ]);
  });

  it('refuses a burst of reactions with 429, as sending is limited', async () => {
    const [nia, oli] = await friends(t.app, 2, ['Nia', 'Oli']);
    const ref = chatRef(nia, oli);
    const msg = await send(oli, ref, 'burst target');
    for (let i = 0; i < REACTIONS_PER_MINUTE; i++) {
      const res = await reactOn(t.app, nia, ref, msg.id, '👍', i % 2 === 0);
      expect(res.statusCode).toBe(200);
    }
    const over = await reactOn(t.app, nia, ref, msg.id, '❤️');
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toBe(MSG.api.rateLimited);
    expect((await shown(oli, ref, msg.id))!.reactions).toBeUndefined();
    // The limit is the student's: the friend still reacts.
    expect((await reactOn(t.app, oli, ref, msg.id, '❤️')).statusCode).toBe(200);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('reactions across two instances on PostgreSQL', () => {
  const cast = twoInstanceCast();

  it('a reaction made through instance 1 reaches the friend and the reactor’s other tab on instance 2', async () => {
    const { one, ada, bob } = cast;
    const { adaOnTwo, bobOnTwo } = await cast.socketsOnTwo();
    const ref = chatRef(ada, bob);
    const sent = (await post(one.app, bob, ref, { content: 'across instances' })).json().message as ChatMessage;
    const res = await reactOn(one.app, ada, ref, sent.id, '😢');
    expect(res.statusCode).toBe(200);
    for (const tab of [bobOnTwo, adaOnTwo]) {
      expect(await tab.waitForEvent('message.updated', (e) => e.message.id === sent.id)).toMatchObject({
        message: { reactions: [{ emoji: '😢', users: [{ id: ada.id }] }] },
      });
    }
  });
});
