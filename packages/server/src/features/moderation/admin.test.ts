import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { MODERATION_MSG } from '@studybuddy/shared/messages/moderation';
import type { AdminReport, AuditEntry } from '@studybuddy/shared/moderation';
import { conversationTopic } from '@studybuddy/shared/realtime';
import { loadConfig } from '../../config.ts';
import { moderationAudit, reports } from '../../db/schema.ts';
import { WsTestClient } from '../../platform/realtime/ws-test-client.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, history, post } from '../chat/chat.test-kit.ts';
import { changeGrant } from './admins.service.ts';
import { GRANTS_ROUTE, grantsToken } from './operator.routes.ts';

const NOT_FOUND = { error: { code: 'not_found', message: MSG.api.notFound } };
const ADMIN_EMAIL = 'head-moderator@g.ucla.edu';

/** Every route of the admin area, with a request that would be valid for an admin. */
const ADMIN_ROUTES: { method: 'GET' | 'POST'; url: string; route: string; payload?: object }[] = [
  { method: 'GET', route: '/api/admin/me', url: '/api/admin/me' },
  { method: 'GET', route: '/api/admin/reports', url: '/api/admin/reports?status=open' },
  {
    method: 'POST',
    route: '/api/admin/reports/:id/resolve',
    url: '/api/admin/reports/r1/resolve',
    payload: { reason: 'x' },
  },
  { method: 'GET', route: '/api/admin/feedback', url: '/api/admin/feedback' },
  { method: 'GET', route: '/api/admin/students', url: '/api/admin/students?q=student' },
  {
    method: 'POST',
    route: '/api/admin/students/:id/disable',
    url: '/api/admin/students/u1/disable',
    payload: { reason: 'x' },
  },
  {
    method: 'POST',
    route: '/api/admin/students/:id/enable',
    url: '/api/admin/students/u1/enable',
    payload: { reason: 'x' },
  },
  {
    method: 'POST',
    route: '/api/admin/messages/:id/delete',
    url: '/api/admin/messages/m1/delete',
    payload: { reason: 'x' },
  },
  {
    method: 'POST',
    route: '/api/admin/groups/:groupId/members/:userId/remove',
    url: '/api/admin/groups/g1/members/u1/remove',
    payload: { reason: 'x' },
  },
  { method: 'GET', route: '/api/admin/audit', url: '/api/admin/audit' },
];

describe('the admin area (issue 24 point 3)', () => {
  let t: TestApp;
  let admin: TestUser;
  let baseUrl: string;
  const routes: RouteOptions[] = [];
  const sockets: WsTestClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({ ADMINS: ` ${ADMIN_EMAIL.toUpperCase()} ` }, { onRoute: (r) => void routes.push(r) });
    admin = await createUser(t.app, { email: ADMIN_EMAIL, name: 'Head Moderator' });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(async () => {
    await Promise.all(sockets.splice(0).map((s) => s.close()));
  });
  afterAll(() => t.close());

  const as = (user: TestUser | null, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, payload, headers: user ? { cookie: user.cookie } : {} });
  const act = (url: string, payload: object) => as(admin, 'POST', url, payload);
  const auditLog = async (): Promise<AuditEntry[]> => (await as(admin, 'GET', '/api/admin/audit')).json().entries;
  const auditRows = async () => (await t.app.ctx.db.select().from(moderationAudit)).length;
  const report = (user: TestUser, targetKind: 'student' | 'message', targetId: string) =>
    as(user, 'POST', '/api/reports', { targetKind, targetId, reason: 'harassment' });
  const openReports = async (): Promise<AdminReport[]> =>
    (await as(admin, 'GET', '/api/admin/reports?status=open')).json().reports;

  async function socketOf(user: TestUser) {
    const client = await WsTestClient.connect(baseUrl, user.cookie);
    sockets.push(client);
    await client.waitFor((f) => f.type === 'hello');
    return client;
  }

  describe('refused to everyone else with 404, like a path that does not exist', () => {
    it('lists every admin route here (so none is left untested)', () => {
      const found = routes
        .filter((r) => r.url.startsWith('/api/admin/') && !['/api/admin/backup', GRANTS_ROUTE].includes(r.url))
        .flatMap((r) =>
          [r.method]
            .flat()
            .filter((m) => m !== 'HEAD')
            .map((m) => `${m} ${r.url}`),
        );
      expect(found.sort()).toEqual(ADMIN_ROUTES.map((r) => `${r.method} ${r.route}`).sort());
    });

    it('answers 404 on every route to the signed out, students, unverified accounts and revoked admins', async () => {
      const student = await createUser(t.app);
      const unverified = await createUser(t.app, { verified: false });
      const revoked = await createUser(t.app);
      await changeGrant(t.app.ctx, 'grant', revoked.email);
      await changeGrant(t.app.ctx, 'revoke', revoked.email);
      const before = await auditRows();
      for (const caller of [null, student, unverified, revoked]) {
        for (const r of ADMIN_ROUTES) {
          // A valid request, a malformed one and one without a body: all the same 404, the input never looked at.
          for (const payload of r.method === 'POST' ? [r.payload, { reason: 42 }, undefined] : [undefined]) {
            const res = await as(caller, r.method, r.url, payload);
            expect(res.statusCode, `${caller?.email ?? 'signed out'} ${r.method} ${r.url}`).toBe(404);
            expect(res.json()).toEqual(NOT_FOUND);
          }
        }
      }
      // Methods and paths that do not exist answer the same.
      expect((await as(student, 'GET', '/api/admin/nothing')).json()).toEqual(NOT_FOUND);
      expect((await as(admin, 'POST', '/api/admin/audit', { reason: 'x' })).statusCode).toBe(404);
      expect(await auditRows()).toBe(before);
    });

    it('offers nothing over the socket: admin topics and ops are refused like unknown ones', async () => {
      const student = await createUser(t.app);
      const socket = await socketOf(student);
      const answerTo = async (frame: Record<string, unknown>) => {
        const from = socket.frames.length;
        socket.send(frame);
        return socket.waitFor((f) => f.type === 'error', 5000, from);
      };
      const unknownTopic = await answerTo({ op: 'subscribe', topic: 'nothing:here' });
      expect(await answerTo({ op: 'subscribe', topic: 'admin:reports' })).toEqual(unknownTopic);
      const unknownOp = await answerTo({ op: 'nothing' });
      expect(await answerTo({ op: 'admin.disable', userId: admin.id })).toEqual(unknownOp);
    });

    it('lists the routes in the API docs', async () => {
      const doc = (await as(null, 'GET', '/api/docs/openapi.json')).json();
      expect(Object.keys(doc.paths).filter((p: string) => p.startsWith('/api/admin/'))).toEqual(
        expect.arrayContaining(['/api/admin/reports', '/api/admin/students/{id}/disable', '/api/admin/audit']),
      );
    });

    it('the operator route of npm run admin answers only this machine with the SECRET_KEY token', async () => {
      const student = await createUser(t.app);
      const grant = { action: 'grant', email: student.email };
      for (const headers of [
        { cookie: admin.cookie },
        { authorization: 'Bearer wrong' },
        // Relayed by a proxy: not this machine's own command.
        { authorization: `Bearer ${grantsToken(t.config.secretKey)}`, 'x-forwarded-for': '203.0.113.9' },
      ]) {
        const res = await t.app.inject({ method: 'POST', url: GRANTS_ROUTE, headers, payload: grant });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(NOT_FOUND);
      }
      const ok = await t.app.inject({
        method: 'POST',
        url: GRANTS_ROUTE,
        headers: { authorization: `Bearer ${grantsToken(t.config.secretKey)}` },
        payload: grant,
      });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toMatchObject({ kind: 'done', changed: true, viaSetting: false, userId: student.id });
      expect((await as(student, 'GET', '/api/admin/me')).json()).toEqual({ email: student.email });
    });
  });

  it('makes admins of the ADMINS e-mails and of granted accounts; a revoke ends it at once', async () => {
    expect((await as(admin, 'GET', '/api/admin/me')).json()).toEqual({ email: ADMIN_EMAIL });
    const helper = await createUser(t.app, { name: 'Helper' });
    expect((await as(helper, 'GET', '/api/admin/me')).statusCode).toBe(404);
    expect(await changeGrant(t.app.ctx, 'grant', helper.email.toUpperCase())).toMatchObject({ changed: true });
    expect(await changeGrant(t.app.ctx, 'grant', helper.email)).toMatchObject({ changed: false });
    expect((await as(helper, 'GET', '/api/admin/me')).statusCode).toBe(200);
    const search = (await as(admin, 'GET', `/api/admin/students?q=${encodeURIComponent(helper.email)}`)).json();
    expect(search.students).toEqual([expect.objectContaining({ id: helper.id, admin: true, name: 'Helper' })]);
    expect(await changeGrant(t.app.ctx, 'revoke', helper.email)).toMatchObject({ changed: true, viaSetting: false });
    expect((await as(helper, 'GET', '/api/admin/me')).statusCode).toBe(404);
    // An ADMINS admin stays one whatever the grants say.
    expect(await changeGrant(t.app.ctx, 'revoke', ADMIN_EMAIL)).toMatchObject({ changed: false, viaSetting: true });
    expect(await changeGrant(t.app.ctx, 'grant', 'nobody@g.ucla.edu')).toEqual({ kind: 'noAccount' });
    const entries = (await auditLog()).filter((e) => e.targetId === helper.id);
    expect(entries.map((e) => [e.action, e.actor, e.targetLabel])).toEqual([
      ['revokeAdmin', MODERATION_MSG.admin.audit.operator, helper.email],
      ['grantAdmin', MODERATION_MSG.admin.audit.operator, helper.email],
    ]);
  });

  it('disabling ends every session and socket at once; the student cannot log in and is hidden until enabled', async () => {
    const college = `${Date.now()}`;
    const email = (who: string) => `${who}${college}@wisc.edu`;
    const viewer = await createUser(t.app, { email: email('viewer'), name: 'Quinn Viewer', courses: ['Zoology 101'] });
    const target = await createUser(t.app, {
      email: email('target'),
      name: 'Zebulon Hidden',
      courses: ['Zoology 101'],
    });
    const [owner, friend] = await friends(t.app, 2, ['Group Owner', 'Friend']);
    // Target is in a group with owner and friend (added by owner, so friends with owner).
    await t.app.ctx.db.execute(
      sql`insert into connections (user_id, friend_id) values (${owner.id}, ${target.id}), (${target.id}, ${owner.id})`,
    );
    const group = await as(owner, 'POST', '/api/groups', {
      name: 'Mixed',
      description: '',
      memberIds: [friend.id, target.id],
    });
    const groupId = group.json().id as string;
    const filed = await report(viewer, 'student', target.id);
    expect(filed.statusCode).toBe(201);

    const seen = async () => {
      const matches = (await as(viewer, 'GET', '/api/social/matches?limit=50')).json().candidates as { uid: string }[];
      const search = (await as(viewer, 'GET', '/api/social/search?q=zebulon')).json().users as { uid: string }[];
      const box = (await as(viewer, 'GET', '/api/search?q=zebulon')).json().people as { uid: string }[];
      const members = (await as(owner, 'GET', `/api/groups/${groupId}`)).json() as {
        memberCount: number;
        members: { id: string }[];
      };
      return {
        matches: matches.some((c) => c.uid === target.id),
        search: search.some((c) => c.uid === target.id),
        box: box.some((c) => c.uid === target.id),
        members: members.members.some((m) => m.id === target.id),
        memberCount: members.memberCount,
      };
    };
    expect(await seen()).toEqual({ matches: true, search: true, box: true, members: true, memberCount: 3 });

    const socket = await socketOf(target);
    const closed = new Promise<number>((resolve) => socket.ws.once('close', (code) => resolve(code)));
    const before = await auditRows();
    const res = await act(`/api/admin/students/${target.id}/disable`, {
      reason: 'Harassment confirmed',
      reportId: filed.json().id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().entry).toMatchObject({
      actor: ADMIN_EMAIL,
      action: 'disableAccount',
      targetKind: 'student',
      targetId: target.id,
      targetLabel: target.email,
      reason: 'Harassment confirmed',
      reportId: filed.json().id,
    });
    expect(await auditRows()).toBe(before + 1);
    // Signed out at once, everywhere: the socket closes as signed out, the session is gone.
    expect(await closed).toBe(4401);
    expect((await as(target, 'GET', '/api/auth/session')).json().user).toBeNull();
    const login = await as(null, 'POST', '/api/auth/login', { email: target.email, password: 'password123' });
    expect(login.statusCode).toBe(403);
    expect(login.json().error).toMatchObject({ code: 'account_disabled', message: MSG.reset.accountDisabled });
    expect(MSG.reset.accountDisabled).toBe('Account is disabled. Please contact support.');
    expect(await seen()).toEqual({ matches: false, search: false, box: false, members: false, memberCount: 2 });
    // The report it named is resolved with what was done.
    const resolved = (await as(admin, 'GET', '/api/admin/reports?status=resolved')).json().reports as AdminReport[];
    expect(resolved.find((r) => r.id === filed.json().id)).toMatchObject({
      status: 'resolved',
      reported: { id: target.id, disabled: true },
      resolution: {
        by: ADMIN_EMAIL,
        note: `${MODERATION_MSG.admin.audit.actions.disableAccount}: Harassment confirmed`,
      },
    });

    const enabled = await act(`/api/admin/students/${target.id}/enable`, { reason: 'Appeal accepted' });
    expect(enabled.json().entry).toMatchObject({ action: 'enableAccount', targetId: target.id, reportId: null });
    expect(
      (await as(null, 'POST', '/api/auth/login', { email: target.email, password: 'password123' })).statusCode,
    ).toBe(200);
    expect(await seen()).toEqual({ matches: true, search: true, box: true, members: true, memberCount: 3 });
  });

  it('deletes a message of any conversation (the report keeps its copy) and removes a student from a group', async () => {
    const [ann, ben, cal] = await friends(t.app, 3, ['Ann', 'Ben', 'Cal']);
    const sent = (await post(t.app, ben, chatRef(ann, ben), { content: 'something awful' })).json().message
      .id as string;
    const filed = await report(ann, 'message', sent);
    const deleted = await act(`/api/admin/messages/${sent}/delete`, { reason: 'Abusive', reportId: filed.json().id });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().entry).toMatchObject({
      action: 'deleteMessage',
      targetKind: 'message',
      targetId: sent,
      targetLabel: `${ben.email}: something awful`,
    });
    // Gone for both (shown as deleted, or not at all): its words are nowhere in the history.
    expect(JSON.stringify((await history(t.app, ann, chatRef(ann, ben))).json().messages)).not.toContain('awful');
    const kept = (await as(admin, 'GET', '/api/admin/reports?status=resolved')).json().reports as AdminReport[];
    expect(kept.find((r) => r.id === filed.json().id)).toMatchObject({
      messageExists: false,
      snapshot: { messages: [expect.objectContaining({ id: sent, content: 'something awful', reported: true })] },
    });
    // Gone: a second delete is a 404.
    expect((await act(`/api/admin/messages/${sent}/delete`, { reason: 'again' })).statusCode).toBe(404);

    const group = await as(ann, 'POST', '/api/groups', { name: 'Trio', description: '', memberIds: [ben.id, cal.id] });
    const groupId = group.json().id as string;
    const socket = await socketOf(ben);
    socket.send({ op: 'subscribe', topic: conversationTopic({ kind: 'group', id: groupId }) });
    await socket.waitFor((f) => f.type === 'subscribed');
    const removed = await act(`/api/admin/groups/${groupId}/members/${ben.id}/remove`, {
      reason: 'Spamming the group',
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().entry).toMatchObject({
      action: 'removeFromGroup',
      targetKind: 'group',
      targetId: groupId,
      targetLabel: MODERATION_MSG.admin.removedFrom(ben.email, 'Trio'),
    });
    await socket.waitForEvent('group.changed', (e) => e.groupId === groupId && e.change === 'left');
    expect((await as(ben, 'GET', `/api/groups/${groupId}`)).statusCode).toBe(403);
    const members = (await as(ann, 'GET', `/api/groups/${groupId}`)).json().members as { id: string }[];
    expect(members.map((m) => m.id).sort()).toEqual([ann.id, cal.id].sort());
    expect((await act(`/api/admin/groups/${groupId}/members/${ben.id}/remove`, { reason: 'again' })).statusCode).toBe(
      404,
    );
  });

  it('resolves a report once; the queue shows it open, then resolved', async () => {
    const [dan, eli] = await friends(t.app, 2);
    const filed = (await report(dan, 'student', eli.id)).json().id as string;
    expect((await openReports()).map((r) => r.id)).toContain(filed);
    const done = await act(`/api/admin/reports/${filed}/resolve`, { reason: 'Not a violation' });
    expect(done.json().entry).toMatchObject({
      action: 'resolveReport',
      targetKind: 'report',
      targetId: filed,
      reportId: filed,
    });
    expect((await openReports()).map((r) => r.id)).not.toContain(filed);
    const again = await act(`/api/admin/reports/${filed}/resolve`, { reason: 'twice' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(MODERATION_MSG.admin.alreadyResolved);
  });

  it('writes one audit entry for every action, shown newest first, and no entry can be changed', async () => {
    const entries = await auditLog();
    const actions = new Set(entries.map((e) => e.action));
    expect([...actions].sort()).toEqual(
      [
        'disableAccount',
        'enableAccount',
        'deleteMessage',
        'removeFromGroup',
        'resolveReport',
        'grantAdmin',
        'revokeAdmin',
      ].sort(),
    );
    expect(entries.every((e) => e.actor && e.reason && e.at && e.targetId)).toBe(true);
    const times = entries.map((e) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(await auditRows()).toBe(entries.length);
    // Append-only in the database itself.
    const first = entries[0]!;
    await expect(
      t.app.ctx.db.update(moderationAudit).set({ reason: 'rewritten' }).where(eq(moderationAudit.id, first.id)),
    ).rejects.toThrow();
    await expect(t.app.ctx.db.delete(moderationAudit).where(eq(moderationAudit.id, first.id))).rejects.toThrow();
    expect((await auditLog())[0]).toEqual(first);
    // No route changes it.
    const writes = routes.filter(
      (r) => r.url.startsWith('/api/admin/audit') && [r.method].flat().some((m) => m !== 'GET' && m !== 'HEAD'),
    );
    expect(writes).toEqual([]);
  });

  it('answers 404 for ids that do not exist, changing nothing; refuses to disable oneself and actions without a reason', async () => {
    const student = await createUser(t.app);
    const before = await auditRows();
    const missing = randomUUID();
    for (const url of [
      `/api/admin/students/${missing}/disable`,
      `/api/admin/students/${missing}/enable`,
      `/api/admin/messages/${missing}/delete`,
      `/api/admin/groups/${missing}/members/${student.id}/remove`,
      `/api/admin/reports/${missing}/resolve`,
    ]) {
      const res = await act(url, { reason: 'because' });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual(NOT_FOUND);
    }
    // A report that does not exist stops the action before anything is done.
    const named = await act(`/api/admin/students/${student.id}/disable`, { reason: 'x', reportId: missing });
    expect(named.statusCode).toBe(404);
    expect((await as(student, 'GET', '/api/auth/session')).json().user).toMatchObject({ id: student.id });

    const self = await act(`/api/admin/students/${admin.id}/disable`, { reason: 'oops' });
    expect(self.statusCode).toBe(400);
    expect(self.json().error.message).toBe(MODERATION_MSG.admin.notYourself);
    for (const payload of [{}, { reason: '   ' }]) {
      const res = await act(`/api/admin/students/${student.id}/disable`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ field: 'reason', message: MODERATION_MSG.admin.whyRequired });
    }
    expect(await auditRows()).toBe(before);
    expect(await t.app.ctx.db.select().from(reports).where(eq(reports.id, missing))).toEqual([]);
  });

  it('shows the feedback inbox with who sent it', async () => {
    const student = await createUser(t.app, { name: 'Feedback Fan' });
    await as(student, 'POST', '/api/feedback', { feedback: 'Love the app', rating: 5 });
    await as(null, 'POST', '/api/feedback', { feedback: 'Anonymous note', rating: 2 });
    const inbox = (await as(admin, 'GET', '/api/admin/feedback')).json().feedback;
    expect(inbox.slice(0, 2)).toEqual([
      expect.objectContaining({ feedback: 'Anonymous note', rating: 2, from: null }),
      expect.objectContaining({
        feedback: 'Love the app',
        rating: 5,
        from: { id: student.id, email: student.email, name: 'Feedback Fan', disabled: false },
      }),
    ]);
  });
});

describe('ADMINS setting', () => {
  it('reads comma-separated e-mails, lower-cased, and refuses anything else naming it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-admins-'));
    const env = (ADMINS: string) => ({ ADMINS, DATA_DIR: dir });
    expect(loadConfig(env(' A@g.ucla.edu, b@wisc.edu ,a@g.ucla.edu,')).admins).toEqual(['a@g.ucla.edu', 'b@wisc.edu']);
    expect(loadConfig({ DATA_DIR: dir }).admins).toEqual([]);
    for (const bad of ['not-an-email', 'a@b@c.edu', 'a@localhost']) {
      expect(() => loadConfig(env(`ok@g.ucla.edu,${bad}`))).toThrow(`"${bad}" is not one`);
    }
  });
});
