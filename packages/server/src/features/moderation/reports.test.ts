import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import { MODERATION_MSG } from '@studybuddy/shared/messages/moderation';
import type { AdminReport, ReportInput } from '@studybuddy/shared/moderation';
import { messages, reports } from '../../db/schema.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';
import { chatRef, friends, post } from '../chat/chat.test-kit.ts';
import { reportsForExport } from './account-data.service.ts';

/** Issue 24 point 2: reports of students and messages, their snapshot, dedupe, the daily limit and the refusals. */
describe('POST /api/reports', () => {
  let t: TestApp;
  let admin: TestUser;
  const ADMIN = 'moderator-reports@g.ucla.edu';

  beforeAll(async () => {
    t = await createTestApp({ ADMINS: ADMIN, QUOTA_REPORTS_PER_DAY: '3' });
    admin = await createUser(t.app, { email: ADMIN, name: 'Moderator' });
  });
  afterAll(() => t.close());

  const report = (user: TestUser, payload: Partial<ReportInput> | Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/reports', headers: { cookie: user.cookie }, payload });

  async function queue(status: 'open' | 'resolved' = 'open'): Promise<AdminReport[]> {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/reports?status=${status}`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json().reports;
  }

  async function sendAll(from: TestUser[], to: TestUser, texts: string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const [i, content] of texts.entries()) {
      const sender = from[i % from.length]!;
      const res = await post(t.app, sender, chatRef(sender, to), { content });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().message.id);
    }
    return ids;
  }

  it('keeps the reported message and the five before it, even after they are deleted', async () => {
    const [ada, bob] = await friends(t.app, 2, ['Ada Report', 'Bob Harasser']);
    // Alternating senders: bob sends the odd ones, ada the even ones.
    const texts = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
    const ids: string[] = [];
    for (const [i, content] of texts.entries()) {
      const [from, to] = i % 2 === 0 ? [bob, ada] : [ada, bob];
      ids.push(...(await sendAll([from], to, [content])));
    }
    // 'seven' (bob's) is reported: 'two' … 'six' come with it, 'one' and 'eight' do not.
    const res = await report(ada, {
      targetKind: 'message',
      targetId: ids[6]!,
      reason: 'harassment',
      details: ' mean ',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ id: expect.any(String), received: true });

    await t.app.ctx.db.delete(messages).where(eq(messages.conversationId, chatRef(ada, bob).id));
    const found = (await queue()).find((r) => r.id === res.json().id)!;
    expect(found).toMatchObject({
      status: 'open',
      reason: 'harassment',
      details: 'mean',
      targetKind: 'message',
      targetId: ids[6],
      reporter: { id: ada.id, email: ada.email, name: 'Ada Report', disabled: false },
      reported: { id: bob.id, email: bob.email, name: 'Bob Harasser' },
      messageExists: false,
      resolution: null,
    });
    expect(found.snapshot.conversation).toEqual({ kind: 'chat', id: chatRef(ada, bob).id, title: null });
    expect(found.snapshot.student).toMatchObject({ id: bob.id, name: 'Bob Harasser' });
    expect(found.snapshot.messages.map((m) => [m.content, m.reported])).toEqual([
      ['two', false],
      ['three', false],
      ['four', false],
      ['five', false],
      ['six', false],
      ['seven', true],
    ]);
    expect(found.snapshot.messages.at(-1)).toMatchObject({ senderId: bob.id, type: 'text' });
  });

  it('reports a group message with the group named, and a student with the end of their chat', async () => {
    const [cy, dee, eve] = await friends(t.app, 3, ['Cy', 'Dee', 'Eve']);
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: cy.cookie },
      payload: { name: 'Study Circle', description: '', memberIds: [dee.id, eve.id] },
    });
    expect(group.statusCode).toBe(201);
    const ref = { kind: 'group' as const, id: group.json().id as string };
    const sent = await post(t.app, dee, ref, { content: 'spam spam spam' });
    const byMessage = await report(eve, { targetKind: 'message', targetId: sent.json().message.id, reason: 'spam' });
    expect(byMessage.statusCode).toBe(201);

    await sendAll([dee], eve, ['hello eve', 'are you there']);
    const byStudent = await report(eve, { targetKind: 'student', targetId: dee.id, reason: 'impersonation' });
    expect(byStudent.statusCode).toBe(201);

    const open = await queue();
    const groupReport = open.find((r) => r.id === byMessage.json().id)!;
    expect(groupReport.snapshot.conversation).toEqual({ ...ref, title: 'Study Circle' });
    expect(groupReport.snapshot.messages).toEqual([
      expect.objectContaining({ content: 'spam spam spam', reported: true }),
    ]);
    expect(groupReport.messageExists).toBe(true);
    const studentReport = open.find((r) => r.id === byStudent.json().id)!;
    expect(studentReport).toMatchObject({ targetKind: 'student', targetId: dee.id, reported: { id: dee.id } });
    expect(studentReport.snapshot.student).toMatchObject({ id: dee.id, name: 'Dee' });
    expect(studentReport.snapshot.messages.map((m) => m.content)).toEqual(['hello eve', 'are you there']);
  });

  it('counts the same target reported twice by one student as one report (and not against the limit)', async () => {
    const [fay, gus] = await friends(t.app, 2);
    const first = await report(fay, { targetKind: 'student', targetId: gus.id, reason: 'spam' });
    const again = await report(fay, { targetKind: 'student', targetId: gus.id, reason: 'other', details: 'more' });
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const rows = await t.app.ctx.db.select().from(reports).where(eq(reports.reporterId, fay.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ reason: 'spam', details: '' });
    // Another student reporting the same target files a report of their own.
    const hal = await createUser(t.app);
    expect((await report(hal, { targetKind: 'student', targetId: gus.id, reason: 'spam' })).statusCode).toBe(201);
  });

  it(`refuses the (QUOTA_REPORTS_PER_DAY + 1)th report of a day with 429 naming the limit`, async () => {
    const reporter = await createUser(t.app);
    const targets = await Promise.all([1, 2, 3, 4].map(() => createUser(t.app)));
    for (const target of targets.slice(0, 3)) {
      expect((await report(reporter, { targetKind: 'student', targetId: target.id, reason: 'spam' })).statusCode).toBe(
        201,
      );
    }
    // A repeat still answers (it is one report), but a new target is over the limit.
    expect(
      (await report(reporter, { targetKind: 'student', targetId: targets[0]!.id, reason: 'spam' })).statusCode,
    ).toBe(200);
    const over = await report(reporter, { targetKind: 'student', targetId: targets[3]!.id, reason: 'spam' });
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toEqual({
      code: 'quota_exceeded',
      message: MSG.quota.exceeded(MODERATION_MSG.report.perDay, '3', MSG.quota.tryLater),
    });
    // Refused reports do not count: another student is not held back.
    const other = await createUser(t.app);
    expect((await report(other, { targetKind: 'student', targetId: targets[3]!.id, reason: 'spam' })).statusCode).toBe(
      201,
    );
  });

  it('answers 404, never a hint, for targets that do not exist or the reporter may not see', async () => {
    const [ivy, jon] = await friends(t.app, 2);
    const [kim, lou] = await friends(t.app, 2);
    const theirs = (await post(t.app, kim, chatRef(kim, lou), { content: 'private' })).json().message.id as string;
    const group = await t.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: { cookie: kim.cookie },
      payload: { name: 'Closed', description: '', memberIds: [lou.id] },
    });
    const groupMessage = (
      await post(t.app, lou, { kind: 'group', id: group.json().id }, { content: 'members only' })
    ).json().message.id as string;
    // A student of another college they never met.
    const stranger = await createUser(t.app, { email: `stranger${Date.now()}@andrew.cmu.edu` });
    const refused = [
      { targetKind: 'message', targetId: randomUUID() },
      { targetKind: 'student', targetId: randomUUID() },
      { targetKind: 'message', targetId: theirs },
      { targetKind: 'message', targetId: groupMessage },
      { targetKind: 'student', targetId: stranger.id },
    ] as const;
    for (const target of refused) {
      const res = await report(ivy, { ...target, reason: 'spam' });
      expect(res.statusCode, JSON.stringify(target)).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: MSG.api.notFound } });
    }
    const unknown = await t.app.inject({ method: 'GET', url: '/api/nothing-here', headers: { cookie: ivy.cookie } });
    expect(unknown.json()).toEqual({ error: { code: 'not_found', message: MSG.api.notFound } });
    // The same student at their own college is someone they may report.
    expect((await report(ivy, { targetKind: 'student', targetId: jon.id, reason: 'spam' })).statusCode).toBe(201);
    expect(await t.app.ctx.db.select().from(reports).where(eq(reports.reporterId, ivy.id))).toHaveLength(1);
  });

  it('refuses a report of oneself or of one’s own message (400), and bad input naming the field', async () => {
    const [max, ned] = await friends(t.app, 2);
    const mine = (await post(t.app, max, chatRef(max, ned), { content: 'my own words' })).json().message.id as string;
    for (const target of [
      { targetKind: 'student', targetId: max.id },
      { targetKind: 'message', targetId: mine },
    ] as const) {
      const res = await report(max, { ...target, reason: 'other' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'bad_request',
        message: MODERATION_MSG.report.notYourself,
        field: 'targetId',
      });
    }
    const noReason = await report(max, { targetKind: 'student', targetId: ned.id });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().error).toMatchObject({ field: 'reason', message: MODERATION_MSG.report.reasonRequired });
    const tooLong = await report(max, {
      targetKind: 'student',
      targetId: ned.id,
      reason: 'other',
      details: 'x'.repeat(1001),
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error).toMatchObject({
      field: 'details',
      message: MODERATION_MSG.report.detailsTooLong(1000),
    });
    expect(await t.app.ctx.db.select().from(reports).where(eq(reports.reporterId, max.id))).toHaveLength(0);
  });

  it('lists the reports a student made in their data download: what, why and when, never the outcome', async () => {
    const [quin, rae] = await friends(t.app, 2, ['Quin', 'Rae Reported']);
    const filed = await report(quin, { targetKind: 'student', targetId: rae.id, reason: 'spam', details: 'ads' });
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/reports/${filed.json().id}/resolve`,
      headers: { cookie: admin.cookie },
      payload: { reason: 'handled' },
    });
    expect(resolved.statusCode).toBe(200);
    expect(await reportsForExport(t.app.ctx.db, quin.id)).toEqual([
      { reported: 'student', student: 'Rae Reported', reason: 'spam', details: 'ads', sentAt: expect.any(String) },
    ]);
    expect(await reportsForExport(t.app.ctx.db, rae.id)).toEqual([]);
  });

  it('asks for a log-in, and the reporter never sees the queue or anyone’s outcome', async () => {
    const signedOut = await t.app.inject({
      method: 'POST',
      url: '/api/reports',
      payload: { targetKind: 'student', targetId: admin.id, reason: 'spam' },
    });
    expect(signedOut.statusCode).toBe(401);
    const [oli, pam] = await friends(t.app, 2);
    const filed = await report(oli, { targetKind: 'student', targetId: pam.id, reason: 'harassment' });
    expect(Object.keys(filed.json()).sort()).toEqual(['id', 'received']);
    for (const url of ['/api/admin/reports', `/api/admin/reports?status=resolved`]) {
      expect((await t.app.inject({ method: 'GET', url, headers: { cookie: oli.cookie } })).statusCode).toBe(404);
    }
  });
});
