// postgres-leg: full-text search: search.service.ts, people-search.repository.ts, group-search.service.ts, page-search.service.ts
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { MessagePage } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { SEARCH_LIMITS, searchPaths, type SearchResults, type Snippet } from '@studybuddy/shared/search';
import { connections, courseDocuments, documentPages, groupMembers, groups } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { befriend, chatRef, history, post } from '../chat/chat.test-kit.ts';

/** The words a snippet marks, lower-cased. */
const marked = (s: Snippet) => s.marks.map(([a, b]) => s.text.slice(a, b).toLowerCase());

describe('one search box', () => {
  let t: TestApp;
  let ada: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let eve: TestUser;
  let mallory: TestUser;
  let outsider: TestUser;
  const groupId = randomUUID();
  const hotGroupId = '9001_assignment_77';

  const find = (user: TestUser, q: string, limit?: number) =>
    t.app.inject({
      method: 'GET',
      url: `/api/search?${new URLSearchParams({ q, ...(limit ? { limit: String(limit) } : {}) }).toString()}`,
      headers: { cookie: user.cookie },
    });
  const results = async (user: TestUser, q: string): Promise<SearchResults> => {
    const res = await find(user, q);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp();
    ada = await createUser(t.app, {
      name: 'Ada Lovelace',
      courses: ['Analytical Engines'],
      coursework: [
        {
          courseId: '9001',
          courseName: 'Mechanics 101',
          items: [
            { id: 'assignment_77', name: 'Pendulum essay' },
            { id: 'quiz_5', name: 'Friction quiz' },
          ],
        },
      ],
    });
    bob = await createUser(t.app, { name: 'Bob Babbage' });
    carol = await createUser(t.app, { name: 'Carol Herschel' });
    eve = await createUser(t.app, { name: 'Eve Zebrafinch' });
    mallory = await createUser(t.app, { name: 'Mallory Quill' });
    outsider = await createUser(t.app, { name: 'Zed Zebrafinch', email: `zed${Date.now()}@andrew.cmu.edu` });
    await befriend(t.app, ada, bob);
    await befriend(t.app, ada, carol);
    await befriend(t.app, eve, mallory);

    const db = t.app.ctx.db;
    await db.insert(groups).values([
      { id: groupId, kind: 'group', name: 'Thermodynamics crew', description: 'Entropy and coffee', createdBy: ada.id },
      { id: hotGroupId, kind: 'hot', hotGroupId, name: 'Pendulum essay', createdBy: ada.id },
    ]);
    await db.insert(groupMembers).values([
      { groupId, userId: ada.id },
      { groupId, userId: carol.id },
      { groupId: hotGroupId, userId: ada.id },
      { groupId: hotGroupId, userId: bob.id },
    ]);

    for (const [who, ref, content] of [
      [ada, chatRef(ada, bob), 'Shall we meet at the library tomorrow?'],
      [bob, chatRef(ada, bob), 'Yes, the <b>library</b> & then lunch'],
      [carol, { kind: 'group' as const, id: groupId }, 'Quantum entanglement notes are in the drive'],
      [ada, { kind: 'group' as const, id: hotGroupId }, 'Pendulum periods: bring a stopwatch'],
      [eve, chatRef(eve, mallory), 'The library secret is under the stairs'],
    ] as const) {
      expect((await post(t.app, who, ref, { content })).statusCode).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('finds a message by a word from it, and by the start of one as it is typed, with the word marked', async () => {
    for (const q of ['library', 'LIBR', 'meet library', 'tomorrow libr']) {
      const { messages } = await results(ada, q);
      const mine = messages.find((m) => m.snippet.text.includes('meet at the library'));
      expect(mine, q).toBeDefined();
      expect(mine).toMatchObject({
        conversation: chatRef(ada, bob),
        title: 'Bob Babbage',
        peerId: bob.id,
        groupKind: null,
        senderName: 'Ada Lovelace',
        snippet: { text: 'Shall we meet at the library tomorrow?', cutStart: false, cutEnd: false },
      });
      expect(marked(mine!.snippet)).toContain('library');
    }
    const { messages } = await results(ada, 'library');
    // Newest first; markup in a message is text, and only the word is marked.
    expect(messages.map((m) => m.snippet.text)).toEqual([
      'Yes, the <b>library</b> & then lunch',
      'Shall we meet at the library tomorrow?',
    ]);
    expect(marked(messages[0]!.snippet)).toEqual(['library']);
    // A word only the other message has: no match (every word must occur).
    expect((await results(ada, 'library stopwatch')).messages).toEqual([]);
  });

  it('lands on the message: its conversation opens on the page around it', async () => {
    const ref = chatRef(ada, bob);
    for (let i = 0; i < 40; i++) await post(t.app, ada, ref, { content: `filler ${i}` });
    const [hit] = (await results(ada, 'shall')).messages;
    expect(hit).toBeDefined();
    expect(searchPaths.message(hit!)).toBe(`/friends?friend=${bob.id}&message=${hit!.cursor}`);

    const around = await history(t.app, ada, ref, `?around=${hit!.cursor}&limit=10`);
    expect(around.statusCode).toBe(200);
    const page = around.json<MessagePage>();
    expect(page.messages.map((m) => m.id)).toContain(hit!.id);
    // It is the conversation's first message: nothing older, then the five newer ones after it.
    expect(page.messages.map((m) => m.content)).toEqual([
      'Shall we meet at the library tomorrow?',
      'Yes, the <b>library</b> & then lunch',
      'filler 0',
      'filler 1',
      'filler 2',
      'filler 3',
    ]);
    expect(page.hasMore).toBe(false);
    expect(page.hasNewer).toBe(true);
    // The next newer page follows on without a gap.
    const last = page.messages.at(-1)!;
    const next = (await history(t.app, ada, ref, `?after=${last.cursor}&limit=100`)).json<MessagePage>();
    expect(next.messages[0]!.content).toBe('filler 4');
    expect(next.messages.at(-1)!.content).toBe('filler 39');
    expect(next.hasNewer).toBe(false);
    expect(next.hasMore).toBe(true);
    // Only one of before/after/around at a time; and a non-member gets nothing of the conversation.
    expect((await history(t.app, ada, ref, `?around=${hit!.cursor}&after=1`)).statusCode).toBe(400);
    expect((await history(t.app, eve, ref, `?around=${hit!.cursor}`)).statusCode).toBe(403);
  });

  it('shows a non-member nothing of the conversations they do not belong to', async () => {
    const eves = await results(eve, 'library');
    expect(eves.messages.map((m) => m.snippet.text)).toEqual(['The library secret is under the stairs']);
    expect(eves.messages[0]!.title).toBe('Mallory Quill');
    // Not in the group: neither its messages nor the group itself.
    expect(await results(eve, 'quantum')).toMatchObject({ messages: [], groups: [] });
    expect((await results(eve, 'thermodynamics')).groups).toEqual([]);
    // Ada does not see Eve's chat either.
    expect((await results(ada, 'secret')).messages).toEqual([]);
    // Carol is in the group, not in Ada's chat with Bob.
    expect((await results(carol, 'quantum')).messages).toHaveLength(1);
    expect((await results(carol, 'library')).messages).toEqual([]);
  });

  it('closes a chat to search when the two are no longer friends', async () => {
    const db = t.app.ctx.db;
    await db.delete(connections).where(and(eq(connections.userId, eve.id), eq(connections.friendId, mallory.id)));
    await db.delete(connections).where(and(eq(connections.userId, mallory.id), eq(connections.friendId, eve.id)));
    expect((await results(eve, 'secret')).messages).toEqual([]);
    expect((await results(mallory, 'secret')).messages).toEqual([]);
    await befriend(t.app, eve, mallory);
    expect((await results(mallory, 'secret')).messages).toHaveLength(1);
  });

  it('finds group messages with the group as title, and hot groups only while the student holds the course', async () => {
    const quantum = (await results(ada, 'entangle')).messages;
    expect(quantum).toHaveLength(1);
    expect(quantum[0]).toMatchObject({
      title: 'Thermodynamics crew',
      groupKind: 'group',
      senderName: 'Carol Herschel',
    });
    expect(searchPaths.message(quantum[0]!)).toBe(`/groups?group=${groupId}&message=${quantum[0]!.cursor}`);

    // Ada's imported coursework holds course 9001: the hot group is hers to search.
    const hot = await results(ada, 'stopwatch');
    expect(hot.messages.map((m) => m.groupKind)).toEqual(['hot']);
    expect(searchPaths.message(hot.messages[0]!)).toContain('tab=hot');
    expect((await results(ada, 'pendulum')).groups.map((g) => g.id)).toEqual([hotGroupId]);
    // Bob is a member but does not take the course: neither the group nor its messages.
    expect(await results(bob, 'stopwatch')).toMatchObject({ messages: [] });
    expect((await results(bob, 'pendulum')).groups).toEqual([]);
  });

  it('finds friends and students of the same college by any word of their name, friends first', async () => {
    const people = (await results(ada, 'zebra')).people;
    // Eve is of Ada's college; Zed (another college) never shows.
    expect(people.map((p) => [p.uid, p.friend])).toEqual([[eve.id, false]]);
    expect(marked(people[0]!.name)).toEqual(['zebrafinch']);
    expect((await results(ada, 'bob')).people.map((p) => [p.uid, p.friend])).toEqual([[bob.id, true]]);
    // Not the searcher themself; an incomplete profile is not found.
    await createUser(t.app, { name: 'Ada Incomplete', complete: false });
    expect((await results(ada, 'ada')).people).toEqual([]);
    // Another college's student finds neither Eve nor themself.
    expect((await results(outsider, 'zebrafinch')).people).toEqual([]);
  });

  it('finds coursework items of the imported courses and pages of course documents', async () => {
    const { coursework } = await results(ada, 'essay');
    expect(coursework).toEqual([
      {
        id: 'assignment_77',
        type: 'assignment',
        name: { text: 'Pendulum essay', marks: [[9, 14]], cutStart: false, cutEnd: false },
        courseId: '9001',
        courseName: 'Mechanics 101',
        dueDate: null,
      },
    ]);
    expect((await results(bob, 'essay')).coursework).toEqual([]);

    const db = t.app.ctx.db;
    const docId = randomUUID();
    const long = `${'Background words about machines. '.repeat(30)}The difference engine tabulates polynomials. ${'More filler here. '.repeat(30)}`;
    await db.insert(courseDocuments).values({
      id: docId,
      userId: ada.id,
      courseId: 'seed-0',
      name: 'Engines.pdf',
      type: 'document',
      source: 'local',
      status: 'done',
      processed: true,
    });
    await db.insert(documentPages).values([
      { documentId: docId, page: 1, unit: 'page', label: 'Page 1', text: 'Title page', method: 'text' },
      { documentId: docId, page: 2, unit: 'page', label: 'Page 2', text: long, method: 'text' },
    ]);
    const { documents } = await results(ada, 'polynom');
    expect(documents).toHaveLength(1);
    expect(documents[0]).toMatchObject({
      documentId: docId,
      name: 'Engines.pdf',
      courseId: 'seed-0',
      courseName: 'Analytical Engines',
      page: 2,
      label: 'Page 2',
    });
    expect(documents[0]!.snippet).toMatchObject({ cutStart: true, cutEnd: true });
    expect(marked(documents[0]!.snippet)).toEqual(['polynomials']);
    const at = documents[0]!.match!;
    expect(long.slice(at[0], at[1])).toBe('polynomials');
    expect(searchPaths.document(documents[0]!)).toBe(`/courses?course=seed-0&doc=${docId}&page=2&at=${at[0]}-${at[1]}`);
    // Another student's documents are never theirs to find.
    expect((await results(carol, 'polynomials')).documents).toEqual([]);
  });

  it('answers strange input with 200 or a clear 400, never a 500', async () => {
    const strange = [
      "'",
      "''':*",
      '\\',
      '!!!',
      '& | ! <-> :*',
      '(((((',
      'a:* | b',
      '"library',
      'library\u0000',
      '\u0301\u0301',
      'é\u0301cole',
      '😀 library',
      '%_%',
      "'; drop table messages; --",
      '<script>alert(1)</script>',
      'x'.repeat(SEARCH_LIMITS.queryMaxChars),
      Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '),
      '\uD800 library',
      '日本語',
      'a',
    ];
    for (const q of strange) {
      const res = await find(ada, q);
      expect([200, 400], `${JSON.stringify(q)}: ${res.body}`).toContain(res.statusCode);
    }
    const nothing = await results(ada, '!!!');
    expect(nothing).toEqual({ people: [], groups: [], messages: [], coursework: [], documents: [] });
    const tooLong = await find(ada, 'x'.repeat(SEARCH_LIMITS.queryMaxChars + 1));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.message).toBe(MSG.search.queryTooLong(SEARCH_LIMITS.queryMaxChars));
    const empty = await find(ada, '   ');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(MSG.search.queryRequired);
    expect((await find(ada, 'library', SEARCH_LIMITS.perKindMax + 1)).statusCode).toBe(400);
    expect((await results(ada, '😀 library')).messages.length).toBeGreaterThan(0);
  });

  it('needs a signed-in student with a complete profile', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/api/search?q=library' });
    expect(anon.statusCode).toBe(401);
    const incomplete = await createUser(t.app, { complete: false });
    expect((await find(incomplete, 'library')).statusCode).toBe(403);
  });
});
