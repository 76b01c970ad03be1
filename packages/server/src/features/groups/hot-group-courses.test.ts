import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import type { ConversationRef } from '@studybuddy/shared/chat';
import type { CourseworkResponse } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { conversationTopic, type ServerFrame } from '@studybuddy/shared/realtime';
import type { CourseRef, OwnProfile } from '@studybuddy/shared/session';
import { groupMembers, profileCourses } from '../../db/schema.ts';
import type { SeedUser } from '../../demo/seed-users.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { get, history, post } from '../chat/chat.test-kit.ts';
import { profiles } from '../profile/profiles.service.ts';

/** Issue 23 points 3 and 5: a hot group is its course's students' only, and only while they hold the course. */

const course = (courseId: string, items: [string, string][]): NonNullable<SeedUser['coursework']>[number] => ({
  courseId,
  courseName: `Course ${courseId}`,
  items: items.map(([id, name]) => ({ id, name })),
});

let emu: Emulator;
let t: TestApp;
let base: string;
/** Who each batch of new messages was announced to (what push notices go by). */
const announced: { conversationId: string; recipients: string[] }[] = [];

beforeAll(async () => {
  emu = await startEmulator({ throttle: false });
  t = await createTestApp({ CANVAS_URL_UCLA: emu.url, RATE_LIMITS: 'false' });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.app.ctx.registry.messageListeners.push((written) => {
    for (const w of written) announced.push({ conversationId: w.message.conversation.id, recipients: w.recipients });
  });
});
afterAll(async () => {
  await t?.close();
  await emu?.close();
});

const open = (user: TestUser, courseId: string, itemId: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/hot-groups',
    headers: { cookie: user.cookie },
    payload: { courseId, itemId },
  });
const membersOf = async (id: string) =>
  (await t.app.ctx.db.select().from(groupMembers).where(eq(groupMembers.groupId, id))).map((m) => m.userId).sort();
const ownProfile = async (user: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie: user.cookie } })).json<OwnProfile>();
/** PUT /api/profile with the student's current profile and these courses (what the profile page's Save sends). */
async function saveCourses(user: TestUser, courses: { id?: string; name: string }[]) {
  const p = await ownProfile(user);
  const payload = {
    name: p.name,
    major: p.major,
    year: p.year,
    bio: p.bio,
    courses,
    profilePicture: p.profilePicture,
    additionalImages: p.additionalImages,
  };
  return t.app.inject({ method: 'PUT', url: '/api/profile', headers: { cookie: user.cookie }, payload });
}
const lms = (user: TestUser, url: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: user.cookie }, payload });

/** A socket of the student, listening to the group's conversation topic. */
async function listening(user: TestUser, ref: ConversationRef): Promise<WsTestClient> {
  const ws = await WsTestClient.connect(base, user.cookie);
  await ws.waitFor((f) => f.type === 'hello');
  ws.send({ op: 'subscribe', topic: conversationTopic(ref) });
  const answer = await ws.waitFor((f: ServerFrame) => f.type === 'subscribed' || f.type === 'error');
  expect(answer).toMatchObject({ type: 'subscribed' });
  return ws;
}

/** Typing events of `from` in the conversation that reached the socket, once everything sent before is in. */
async function typingSeen(ws: WsTestClient, user: TestUser, from: TestUser, ref: ConversationRef): Promise<number> {
  // The marker goes to the user's own topic after the typing event: once it is in, so is anything sent before.
  const marker = `marker-${Math.random()}`;
  t.app.ctx.realtime.toUsers([user.id], { type: 'profile.changed', userId: marker });
  await ws.waitForEvent('profile.changed', (e) => e.userId === marker);
  return ws.events.filter((e) => e.type === 'typing' && e.userId === from.id && e.conversation.id === ref.id).length;
}

/** A typing signal from a member's socket that listens to the conversation (it hears its own signal back). */
async function typing(from: WsTestClient, fromUser: TestUser, ref: ConversationRef) {
  const before = from.frames.length;
  from.send({ op: 'typing', conversation: ref });
  await from.waitFor(
    (f) => f.type === 'event' && f.event.type === 'typing' && f.event.userId === fromUser.id,
    5000,
    before,
  );
}

describe('issue 23.3: a hot group opens only for a course the server vouches for', () => {
  let vic: TestUser;
  let mal: TestUser;

  beforeAll(async () => {
    vic = await createUser(t.app, { name: 'Vic', coursework: [course('4100', [['56', 'Homework 3']])] });
    mal = await createUser(t.app, { name: 'Mal' });
    expect((await open(vic, '4100', '56')).statusCode).toBe(201);
    const said = await post(t.app, vic, { kind: 'group', id: '4100_56' }, { content: 'My notes are in the drive.' });
    expect(said.statusCode).toBe(201);
  });

  it("a course id typed into the profile is never the client's, and opens no hot group", async () => {
    const saved = await saveCourses(mal, [{ id: '4100', name: 'Course 4100' }]);
    expect(saved.statusCode).toBe(200);
    const courses = saved.json<OwnProfile>().courses;
    expect(courses).toEqual([{ id: expect.stringMatching(/^manual-[0-9a-f-]{36}$/), name: 'Course 4100' }]);
    const rows = await t.app.ctx.db.select().from(profileCourses).where(eq(profileCourses.userId, mal.id));
    expect(rows.map((r) => r.name)).toEqual(['Course 4100']);

    const ref = { kind: 'group' as const, id: '4100_56' };
    const opened = await open(mal, '4100', '56');
    expect(opened.statusCode).toBe(403);
    expect(opened.json().error.message).toBe(MSG.groups.notInCourse);
    expect((await history(t.app, mal, ref)).statusCode).toBe(403);
    expect((await get(t.app, mal, `/api/groups/${ref.id}`)).statusCode).toBe(403);
    expect(await membersOf(ref.id)).toEqual([vic.id]);
    const ws = await WsTestClient.connect(base, mal.cookie);
    try {
      await ws.waitFor((f) => f.type === 'hello');
      ws.send({ op: 'subscribe', topic: conversationTopic(ref) });
      expect(await ws.waitFor((f: ServerFrame) => f.type === 'error' || f.type === 'subscribed')).toMatchObject({
        type: 'error',
        status: 403,
      });
    } finally {
      await ws.close();
    }
  });

  it("keeps the ids the profile already holds (Canvas's from an import, or the server's own) and re-keys the rest", async () => {
    const eve = await createUser(t.app, { name: 'Eve' });
    // What a Canvas import leaves in the profile: Canvas's course id.
    await profiles.setCourses(t.app.ctx.db, eve.id, [{ id: '4100', name: 'Course 4100' }]);
    const first = await saveCourses(eve, [
      { id: '4100', name: 'Course 4100' },
      { id: '4101', name: 'Typed by hand' },
      { name: 'Also typed' },
    ]);
    expect(first.statusCode).toBe(200);
    const saved = first.json<OwnProfile>().courses;
    expect(saved.map((c) => c.name)).toEqual(['Course 4100', 'Typed by hand', 'Also typed']);
    expect(saved[0]!.id).toBe('4100');
    expect(saved[1]!.id).toMatch(/^manual-/);
    expect(saved[2]!.id).toMatch(/^manual-/);
    // A later save with what the server answered keeps every id.
    const again = await saveCourses(eve, saved);
    expect(again.json<OwnProfile>().courses).toEqual(saved);
    expect((await open(eve, '4100', '56')).statusCode).toBe(200);
    expect(await membersOf('4100_56')).toEqual([vic.id, eve.id].sort());
  });

  it('coursework loaded for a course Canvas refused does not hold that course', async () => {
    const connected = await lms(mal, '/api/lms/connect', { access_token: DEMO_TOKEN });
    expect(connected.statusCode).toBe(200);
    // The client names the courses to load: Canvas answers 404 for every list of a course that is not the student's.
    const loaded = await lms(mal, '/api/fetch-coursework', { courses: [{ id: '4100', name: 'Course 4100' }] });
    expect(loaded.statusCode).toBe(200);
    expect(loaded.json<CourseworkResponse>().skipped_courses).toEqual([
      { course_id: '4100', skipped_types: expect.arrayContaining(['assignment', 'quiz', 'discussion', 'module_item']) },
    ]);
    expect((await open(mal, '4100', '56')).statusCode).toBe(403);
    expect(await membersOf('4100_56')).not.toContain(mal.id);
  });
});

describe('issue 23.5: dropping a course leaves its hot groups at once', () => {
  it('a profile save without the course: out of the group, socket unsubscribed, no more live messages or push', async () => {
    const ada = await createUser(t.app, { name: 'Ada', coursework: [course('4200', [['7', 'Lab 7']])] });
    const eve = await createUser(t.app, { name: 'Eve' });
    await profiles.setCourses(t.app.ctx.db, eve.id, [{ id: '4200', name: 'Course 4200' }]);
    const ref = { kind: 'group' as const, id: '4200_7' };
    expect((await open(ada, '4200', '7')).statusCode).toBe(201);
    expect((await open(eve, '4200', '7')).statusCode).toBe(200);
    const adaWs = await listening(ada, ref);
    const ws = await listening(eve, ref);
    try {
      await typing(adaWs, ada, ref);
      expect(await typingSeen(ws, eve, ada, ref)).toBe(1);

      const saved = await saveCourses(eve, []);
      expect(saved.statusCode).toBe(200);
      // At once: the answer comes after the membership is gone.
      expect(await membersOf(ref.id)).toEqual([ada.id]);
      await ws.waitForEvent('group.changed', (e) => e.groupId === ref.id && e.change === 'left');

      await typing(adaWs, ada, ref);
      const said = await post(t.app, ada, ref, { content: 'Still there?' });
      expect(said.statusCode).toBe(201);
      const id = said.json<{ id: string }>().id;
      expect(await typingSeen(ws, eve, ada, ref)).toBe(1);
      expect(ws.events.some((e) => e.type === 'message.created' && e.message.id === id)).toBe(false);
      const notice = announced.filter((a) => a.conversationId === ref.id).at(-1)!;
      expect(notice.recipients).toEqual([ada.id]);
      expect((await history(t.app, eve, ref)).statusCode).toBe(403);
    } finally {
      await ws.close();
      await adaWs.close();
    }
  });

  it('a Canvas re-load of coursework that no longer holds the course', async () => {
    const wes = await createUser(t.app, { name: 'Wes' });
    expect((await lms(wes, '/api/lms/connect', { access_token: DEMO_TOKEN })).statusCode).toBe(200);
    const loaded = (await lms(wes, '/api/fetch-coursework', {})).json<CourseworkResponse>();
    const item = loaded.coursework[0]!;
    const ref = { kind: 'group' as const, id: `${item.course_id}_${item.id}` };
    // A classmate holds the course too (imported coursework).
    const cy = await createUser(t.app, { name: 'Cy', coursework: [course(item.course_id, [[item.id, item.name]])] });
    expect((await open(wes, item.course_id, item.id)).statusCode).toBe(201);
    expect((await open(cy, item.course_id, item.id)).statusCode).toBe(200);
    const cyWs = await listening(cy, ref);
    const ws = await listening(wes, ref);
    try {
      // Off the profile, but the imported coursework still holds it: still in.
      const kept: CourseRef[] = (await ownProfile(wes)).courses.filter((c) => c.id !== item.course_id);
      expect((await saveCourses(wes, kept)).statusCode).toBe(200);
      expect(await membersOf(ref.id)).toEqual([wes.id, cy.id].sort());

      // The re-load from Canvas (the profile's courses) no longer holds it: out at once.
      const reloaded = await lms(wes, '/api/fetch-coursework', { force: true });
      expect(reloaded.statusCode).toBe(200);
      expect(reloaded.json<CourseworkResponse>().courses.map((c) => c.id)).not.toContain(item.course_id);
      expect(await membersOf(ref.id)).toEqual([cy.id]);
      await ws.waitForEvent('group.changed', (e) => e.groupId === ref.id && e.change === 'left');

      await typing(cyWs, cy, ref);
      const said = await post(t.app, cy, ref, { content: 'Anyone?' });
      expect(said.statusCode).toBe(201);
      expect(await typingSeen(ws, wes, cy, ref)).toBe(0);
      expect(ws.events.some((e) => e.type === 'message.created' && e.message.conversation.id === ref.id)).toBe(false);
      expect(announced.filter((a) => a.conversationId === ref.id).at(-1)!.recipients).toEqual([cy.id]);
      expect((await history(t.app, wes, ref)).statusCode).toBe(403);
    } finally {
      await ws.close();
      await cyWs.close();
    }
  });
});
