import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDetail, GroupList } from '@studybuddy/shared/groups';
import { STUDY_GROUPS_MSG } from '@studybuddy/shared/messages/study-groups';
import { freeTogetherLabel } from '@studybuddy/shared/schedule';
import type { GroupInvitationList, StudyGroupSuggestions } from '@studybuddy/shared/study-groups';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { disableAccount, enableAccount } from '../auth/account-disable.service.ts';
import { createUser, type TestUser } from '../../test/users.ts';

const week = (free: (cell: number) => boolean) => Array.from({ length: 336 }, (_, i) => (free(i) ? '1' : '0')).join('');
/** Tuesday 14:00–16:00, and more of Tuesday, in the student's zone. */
const TUE = (from: number, to: number) => (c: number) => c >= 48 + from && c < 48 + to;

describe('Find a study group: classmates by free time, invitations (issue 27 part 5)', () => {
  let t: TestApp;
  let viewer: TestUser;
  let most: TestUser;
  let some: TestUser;
  let none: TestUser;
  let blocker: TestUser;
  let blockedByViewer: TestUser;
  let otherCourse: TestUser;
  let otherCollege: TestUser;
  let extra: TestUser[];
  beforeAll(async () => {
    t = await createTestApp();
    const algebra = { courses: ['Linear Algebra'] };
    viewer = await createUser(t.app, { name: 'Viewer', courses: ['Linear Algebra', 'History'] });
    most = await createUser(t.app, { name: 'Most', courses: ['linear  algebra'] });
    some = await createUser(t.app, { name: 'Some', ...algebra });
    none = await createUser(t.app, { name: 'None', ...algebra });
    blocker = await createUser(t.app, { name: 'Blocker', ...algebra });
    blockedByViewer = await createUser(t.app, { name: 'Blocked', ...algebra });
    otherCourse = await createUser(t.app, { name: 'Other course', courses: ['History of Art'] });
    otherCollege = await createUser(t.app, { name: 'Elsewhere', email: `x${Date.now()}@andrew.cmu.edu`, ...algebra });
    extra = [];
    for (const name of ['E1', 'E2', 'E3', 'E4']) extra.push(await createUser(t.app, { name, ...algebra }));
    for (const [u, cells] of [
      [viewer, week(TUE(24, 36))],
      [most, week(TUE(24, 34))],
      [some, week(TUE(28, 30))],
      [none, week(TUE(40, 44))],
      [blocker, week(TUE(24, 36))],
      [blockedByViewer, week(TUE(24, 36))],
      [otherCourse, week(TUE(24, 36))],
      [otherCollege, week(TUE(24, 36))],
    ] as const) {
      const res = await call(u, 'PUT', '/api/schedule/week', { timeZone: 'Europe/Berlin', cells });
      expect(res.statusCode).toBe(200);
    }
    expect((await call(blocker, 'POST', '/api/social/blocks', { userId: viewer.id })).statusCode).toBeLessThan(300);
    expect((await call(viewer, 'POST', '/api/social/blocks', { userId: blockedByViewer.id })).statusCode).toBeLessThan(
      300,
    );
  });
  afterAll(() => t.close());

  function call(u: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
    return t.app.inject({
      method,
      url,
      headers: { cookie: u.cookie },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  const suggest = (u: TestUser, course: string) =>
    call(u, 'GET', `/api/study-groups/suggestions?course=${encodeURIComponent(course)}`);
  const invite = (u: TestUser, inviteeIds: string[], course = 'Linear Algebra') =>
    call(u, 'POST', '/api/study-groups', { course, name: 'Algebra crew', inviteeIds });
  const invitations = async (u: TestUser) =>
    (await call(u, 'GET', '/api/group-invitations')).json<GroupInvitationList>().invitations;

  it('proposes at most five classmates of the course at the college, most free time first, with only the overlap', async () => {
    const res = await suggest(viewer, '  linear ALGEBRA ');
    expect(res.statusCode).toBe(200);
    const body = res.json<StudyGroupSuggestions>();
    expect(body.course).toBe('Linear Algebra');
    expect(body.classmates).toHaveLength(5);
    expect(body.classmates[0]!.name).toBe('Most');
    expect(body.classmates[1]!.name).toBe('Some');
    expect(freeTogetherLabel(body.classmates[0]!.freeTogether!)).toBe('Tue 12:00–17:00');
    const ids = body.classmates.map((c) => c.id);
    // Never a blocked pair (either way), another course or another college.
    for (const u of [blocker, blockedByViewer, otherCourse, otherCollege, viewer]) expect(ids).not.toContain(u.id);
    // Privacy: the overlap only, never anyone's cells or busy times.
    expect(res.body).not.toMatch(/[01]{48}/);
    expect(Object.keys(body.classmates[0]!).sort()).toEqual(['freeTogether', 'id', 'name', 'profilePicture']);
  });

  it("refuses a course that is not the student's own", async () => {
    const res = await suggest(viewer, 'History of Art');
    expect(res.statusCode).toBe(403);
    expect(res.json<{ error: { message: string } }>().error.message).toBe(STUDY_GROUPS_MSG.studyGroups.notYourCourse);
    expect((await invite(viewer, [otherCourse.id], 'History of Art')).statusCode).toBe(403);
  });

  it('refuses inviting a blocked pair, another course or another college, and creates nothing', async () => {
    const before = (await call(viewer, 'GET', '/api/groups').then((r) => r.json<GroupList>())).groups.length;
    for (const u of [blocker, blockedByViewer, otherCourse, otherCollege]) {
      const res = await invite(viewer, [most.id, u.id]);
      expect(res.statusCode).toBe(403);
      expect(res.json<{ error: { message: string } }>().error.message).toBe(STUDY_GROUPS_MSG.studyGroups.notClassmate);
    }
    expect((await call(viewer, 'GET', '/api/groups').then((r) => r.json<GroupList>())).groups).toHaveLength(before);
    expect(await invitations(most)).toEqual([]);
    const tooMany = await invite(viewer, [most.id, some.id, none.id, ...extra.map((e) => e.id)]);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<{ error: { message: string } }>().error.message).toBe(
      STUDY_GROUPS_MSG.studyGroups.tooManyInvitees,
    );
    const empty = await invite(viewer, []);
    expect(empty.statusCode).toBe(400);
    expect(empty.json<{ error: { message: string } }>().error.message).toBe(
      STUDY_GROUPS_MSG.studyGroups.selectClassmate,
    );
  });

  it('invites without adding: each invitee accepts (joins) or declines (stays out); only the invitee can answer', async () => {
    const res = await invite(viewer, [most.id, some.id]);
    expect(res.statusCode).toBe(201);
    const { groupId } = res.json<{ groupId: string }>();
    const detail = async (u: TestUser) => call(u, 'GET', `/api/groups/${groupId}`);
    expect((await detail(viewer)).json<GroupDetail>().members.map((m) => m.name)).toEqual(['Viewer']);
    expect((await detail(most)).statusCode).toBe(403);

    const mine = await invitations(most);
    expect(mine).toMatchObject([{ groupId, groupName: 'Algebra crew', course: 'Linear Algebra' }]);
    expect(mine[0]!.invitedBy.name).toBe('Viewer');

    // Someone not invited cannot accept; the inviter neither.
    expect((await call(none, 'POST', `/api/group-invitations/${groupId}/accept`, {})).statusCode).toBe(404);
    expect((await call(viewer, 'POST', `/api/group-invitations/${groupId}/accept`, {})).statusCode).toBe(404);

    expect((await call(most, 'POST', `/api/group-invitations/${groupId}/accept`, {})).statusCode).toBe(204);
    expect((await call(some, 'POST', `/api/group-invitations/${groupId}/decline`, {})).statusCode).toBe(204);
    const members = (await detail(viewer)).json<GroupDetail>().members.map((m) => m.name);
    expect(members.sort()).toEqual(['Most', 'Viewer']);
    expect((await detail(some)).statusCode).toBe(403);
    expect(await invitations(most)).toEqual([]);
    expect(await invitations(some)).toEqual([]);
    // Answered once: a second answer finds nothing.
    const again = await call(some, 'POST', `/api/group-invitations/${groupId}/accept`, {});
    expect(again.statusCode).toBe(404);
    expect(again.json<{ error: { message: string } }>().error.message).toBe(STUDY_GROUPS_MSG.studyGroups.noInvitation);
  });

  it('an invitation between a pair that blocked since is neither shown nor accepted', async () => {
    const res = await invite(viewer, [none.id]);
    expect(res.statusCode).toBe(201);
    const { groupId } = res.json<{ groupId: string }>();
    expect(await invitations(none)).toHaveLength(1);
    expect((await call(none, 'POST', '/api/social/blocks', { userId: viewer.id })).statusCode).toBeLessThan(300);
    expect(await invitations(none)).toEqual([]);
    expect((await call(none, 'POST', `/api/group-invitations/${groupId}/accept`, {})).statusCode).toBe(404);
    expect((await call(none, 'GET', `/api/groups/${groupId}`)).statusCode).toBe(403);
  });

  it('a disabled classmate is neither proposed nor invitable; an invitation from a student disabled since is neither shown nor accepted', async () => {
    const res = await invite(some, [extra[0]!.id]);
    expect(res.statusCode).toBe(201);
    const { groupId } = res.json<{ groupId: string }>();
    expect(await invitations(extra[0]!)).toHaveLength(1);
    expect(await disableAccount(t.app.ctx, some.id)).toBe(true);
    try {
      const proposed = (await suggest(viewer, 'Linear Algebra')).json<StudyGroupSuggestions>().classmates;
      expect(proposed.map((c) => c.id)).not.toContain(some.id);
      const refused = await invite(viewer, [some.id]);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ error: { message: string } }>().error.message).toBe(
        STUDY_GROUPS_MSG.studyGroups.notClassmate,
      );
      expect(await invitations(extra[0]!)).toEqual([]);
      expect((await call(extra[0]!, 'POST', `/api/group-invitations/${groupId}/accept`, {})).statusCode).toBe(404);
      expect((await call(extra[0]!, 'GET', `/api/groups/${groupId}`)).statusCode).toBe(403);
    } finally {
      await enableAccount(t.app.ctx, some.id);
    }
  });

  it('needs a signed-in student', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/group-invitations' });
    expect(res.statusCode).toBe(401);
  });
});
