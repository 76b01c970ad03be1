import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { GroupList } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { conversationTopic, type ServerFrame } from '@studybuddy/shared/realtime';
import { groupMembers, groups, profiles } from '../../db/schema.ts';
import type { SeedUser } from '../../demo/seed-users.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { befriend, get, history, markRead, pngBytes, post, upload } from '../chat/chat.test-kit.ts';

const course = (courseId: string, items: [string, string][]): NonNullable<SeedUser['coursework']>[number] => ({
  courseId,
  courseName: `Course ${courseId}`,
  items: items.map(([id, name]) => ({ id, name })),
});

describe('hot groups: only the course’s students at the group’s college', () => {
  let t: TestApp;
  let base: string;
  /** Imported coursework of course 1234 (UCLA). */
  let ada: TestUser;
  /** Course 1234 among her profile courses only (no imported coursework). */
  let eve: TestUser;
  /** UCLA, without the course. */
  let cy: TestUser;
  /** Course 1234 of his own college's Canvas (Wisconsin): another course with the same id. */
  let wes: TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    ada = await createUser(t.app, {
      name: 'Ada',
      coursework: [
        course('1234', [
          ['56', 'Homework 3'],
          ['57', 'Lab 2'],
        ]),
        course('77', [['quiz_9', 'Q'.repeat(500)]]),
      ],
    });
    eve = await createUser(t.app, { name: 'Eve' });
    await t.app.ctx.db
      .update(profiles)
      .set({ courses: [{ id: '1234', name: 'Course 1234' }] })
      .where(eq(profiles.userId, eve.id));
    cy = await createUser(t.app, { name: 'Cy' });
    wes = await createUser(t.app, {
      name: 'Wes',
      email: `wes${Date.now()}@wisc.edu`,
      coursework: [course('1234', [['56', 'Wisconsin homework']])],
    });
  });
  afterAll(() => t.close());

  const open = (user: TestUser, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/hot-groups', headers: { cookie: user.cookie }, payload });
  const membersOf = async (id: string) =>
    (await t.app.ctx.db.select().from(groupMembers).where(eq(groupMembers.groupId, id))).map((m) => m.userId).sort();
  const groupRow = async (id: string) => (await t.app.ctx.db.select().from(groups).where(eq(groups.id, id)))[0];

  it('a student without the course cannot open or create one; nothing is written', async () => {
    const res = await open(cy, { courseId: '1234', itemId: '56', name: 'Mine now' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.message).toBe(MSG.groups.notInCourse);
    expect(await groupRow('1234_56')).toBeUndefined();
  });

  it('the name is the coursework item’s title whatever the client sends; classmates join; other colleges do not', async () => {
    const first = await open(ada, { courseId: '1234', itemId: '56', name: 'Free pizza, click here' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ id: '1234_56', created: true });
    expect(await groupRow('1234_56')).toMatchObject({ kind: 'hot', name: 'Homework 3', createdBy: ada.id });

    const joined = await open(eve, { courseId: 1234, itemId: '56', name: 'Renamed by Eve' });
    expect(joined.statusCode).toBe(200);
    expect(joined.json()).toEqual({ id: '1234_56', created: false });
    expect((await groupRow('1234_56'))!.name).toBe('Homework 3');
    expect(await membersOf('1234_56')).toEqual([ada.id, eve.id].sort());
    const list = (await get(t.app, eve, '/api/groups?kind=hot')).json() as GroupList;
    expect(list.groups).toEqual([expect.objectContaining({ id: '1234_56', name: 'Homework 3', createdBy: ada.id })]);
    expect((await post(t.app, eve, { kind: 'group', id: '1234_56' }, { content: 'Anyone started?' })).statusCode).toBe(
      201,
    );

    const otherCollege = await open(wes, { courseId: '1234', itemId: '56' });
    expect(otherCollege.statusCode).toBe(403);
    expect(otherCollege.json().error.message).toBe(MSG.groups.notInCourse);
    expect(await membersOf('1234_56')).not.toContain(wes.id);

    // An item nobody imported cannot be created by a student who only lists the course.
    const unknownItem = await open(eve, { courseId: '1234', itemId: '999', name: 'Made up' });
    expect(unknownItem.statusCode).toBe(404);
    expect(unknownItem.json().error.message).toBe(MSG.groups.hotGroupInvalid);
    expect(await groupRow('1234_999')).toBeUndefined();

    // Long titles are cut.
    const long = await open(ada, { courseId: 77, itemId: 'quiz_9', name: 'short' });
    expect(long.json()).toEqual({ id: '77_quiz_9', created: true });
    expect((await get(t.app, ada, '/api/groups/77_quiz_9')).json().name).toBe('Q'.repeat(200));
  });

  it('refuses malformed ids', async () => {
    for (const payload of [
      { courseId: '12_34', itemId: '5' },
      { courseId: '', itemId: '5' },
      { courseId: '1', itemId: '../5' },
      { itemId: '5' },
    ]) {
      const res = await open(ada, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(MSG.groups.hotGroupInvalid);
    }
  });

  it('a member without the course (joined before these rules) is refused at every entry point', async () => {
    const ref = { kind: 'group' as const, id: '1234_56' };
    const image = (await upload(t.app, ada, ref, 'image', await pngBytes(), 'image/png')).json().url as string;
    expect((await get(t.app, eve, image)).statusCode).toBe(200);
    const makeMember = () =>
      t.app.ctx.db.insert(groupMembers).values({ groupId: ref.id, userId: cy.id }).onConflictDoNothing();

    const probes: [string, () => Promise<{ statusCode: number; json(): { error: { message: string } } }>][] = [
      ['group details', () => get(t.app, cy, `/api/groups/${ref.id}`)],
      ['history', () => history(t.app, cy, ref)],
      ['send', () => post(t.app, cy, ref, { content: 'hello?' })],
      ['mark read', () => markRead(t.app, cy, ref)],
      ['upload', async () => upload(t.app, cy, ref, 'image', await pngBytes(), 'image/png')],
    ];
    for (const [what, probe] of probes) {
      await makeMember();
      const res = await probe();
      expect(res.statusCode, what).toBe(403);
      expect(res.json().error.message, what).toBe(MSG.groups.notMember);
    }
    await makeMember();
    expect((await get(t.app, cy, image)).statusCode).toBe(403);
    expect((await get(t.app, cy, '/api/groups?kind=hot')).json().groups).toEqual([]);
    const resync = (await get(t.app, cy, '/api/realtime/since?cursor=0')).json() as { events: unknown[] };
    expect(JSON.stringify(resync.events)).not.toContain('Anyone started?');

    // The socket: the conversation topic is refused.
    const ws = await WsTestClient.connect(base, cy.cookie);
    try {
      await ws.waitFor((f) => f.type === 'hello');
      ws.send({ op: 'subscribe', topic: conversationTopic(ref) });
      const answer = await ws.waitFor((f: ServerFrame) => f.type === 'error' || f.type === 'subscribed');
      expect(answer).toMatchObject({ type: 'error', status: 403 });
    } finally {
      await ws.close();
    }
    // Refused once, the stale membership is gone (no more live events either).
    expect(await membersOf(ref.id)).not.toContain(cy.id);

    // With the course in his profile, the same student may open and use it.
    await befriend(t.app, ada, cy);
    await t.app.ctx.db
      .update(profiles)
      .set({ courses: [{ id: '1234', name: 'Course 1234' }] })
      .where(eq(profiles.userId, cy.id));
    expect((await open(cy, { courseId: '1234', itemId: '56' })).statusCode).toBe(200);
    expect((await history(t.app, cy, ref)).statusCode).toBe(200);
    await t.app.ctx.db.update(profiles).set({ courses: [] }).where(eq(profiles.userId, cy.id));
  });

  it('only friends who hold the course can be added to a hot group', async () => {
    const bob = await createUser(t.app, { name: 'Bob' });
    await befriend(t.app, ada, bob);
    const add = (memberIds: string[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/groups/1234_56/members',
        headers: { cookie: ada.cookie },
        payload: { memberIds },
      });
    const refused = await add([bob.id]);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe(MSG.groups.notInCourse);
    expect(await membersOf('1234_56')).not.toContain(bob.id);
  });

  it('a group made before these rules by an outsider passes to the course’s student, with the item’s title', async () => {
    // Cy (no course) opened it first and named it; Wes (another college) joined.
    await t.app.ctx.db
      .insert(groups)
      .values({ id: '1234_57', kind: 'hot', hotGroupId: '1234_57', name: 'pwned', createdBy: cy.id });
    await t.app.ctx.db.insert(groupMembers).values([
      { groupId: '1234_57', userId: cy.id },
      { groupId: '1234_57', userId: wes.id },
    ]);
    const res = await open(ada, { courseId: '1234', itemId: '57', name: 'pwned again' });
    expect(res.statusCode).toBe(200);
    expect(await groupRow('1234_57')).toMatchObject({ name: 'Lab 2', createdBy: ada.id });
    expect(await membersOf('1234_57')).toEqual([ada.id]);
    const stale = await t.app.ctx.db
      .select()
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, '1234_57'), eq(groupMembers.userId, cy.id)));
    expect(stale).toEqual([]);
    for (const outsider of [cy, wes]) {
      expect((await history(t.app, outsider, { kind: 'group', id: '1234_57' })).statusCode).toBe(403);
    }
  });
});
