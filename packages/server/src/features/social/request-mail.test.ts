import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MSG } from '@studybuddy/shared/messages';
import type { SendRequestResult } from '@studybuddy/shared/social';
import { profiles } from '../../db/schema.ts';
import type { MailMessage } from '../../platform/mail.ts';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { asStudent, cookieFor, insertStudents } from './students.fixture.ts';

describe('friend request e-mail notice', () => {
  let t: TestApp;
  const outbox: MailMessage[] = [];
  beforeAll(async () => {
    t = await createTestApp({}, { mailer: { send: async (m) => void outbox.push(m) } });
  });
  afterAll(() => t?.close());

  const mailsTo = async (email: string, count: number) => {
    await expect.poll(() => outbox.filter((m) => m.to === email).length).toBe(count);
    return outbox.filter((m) => m.to === email);
  };

  it('mails the recipient a link to /notifications, at most once a day per sender, with a working unsubscribe link', async () => {
    const db = t.app.ctx.db;
    const [a, b, c] = await insertStudents(db, [
      { name: 'Ada Sender' },
      { name: 'Bea Recipient' },
      { name: 'Cy Other' },
    ]);
    const aApi = asStudent(t.app, await cookieFor(db, a!.id));
    const cApi = asStudent(t.app, await cookieFor(db, c!.id));

    const first = await aApi.post<SendRequestResult>('/api/social/requests', { toUserId: b!.id });
    const [mail] = await mailsTo(b!.email, 1);
    expect(mail!.subject).toBe('Ada Sender sent you a friend request');
    expect(mail!.text).toContain('http://localhost:3000/notifications');

    // Unsend and send again the same day: no second mail from the same sender.
    await aApi.del(`/api/social/requests/${first.body.requestId}`);
    await aApi.post('/api/social/requests', { toUserId: b!.id });
    // Another sender still gets through.
    await cApi.post('/api/social/requests', { toUserId: b!.id });
    await mailsTo(b!.email, 2);
    await new Promise((r) => setTimeout(r, 200));
    expect(outbox.filter((m) => m.to === b!.email)).toHaveLength(2);

    // A day later the same sender may mail again.
    await db.execute(sql`UPDATE friend_request_mails SET created_at = now() - interval '25 hours'`);
    const pending = (
      await aApi.get<{ candidates: { uid: string; request: { requestId?: string } }[] }>('/api/social/matches?limit=50')
    ).body.candidates.find((x) => x.uid === b!.id)!.request.requestId!;
    await aApi.del(`/api/social/requests/${pending}`);
    await aApi.post('/api/social/requests', { toUserId: b!.id });
    await mailsTo(b!.email, 3);

    const link = /http:\/\/localhost:3000(\/api\/social\/unsubscribe\?token=\S+)/.exec(mail!.text)![1]!;
    const forged = await t.app.inject({ method: 'GET', url: link.replace(/token=[^.]+/, 'token=eA') });
    expect(forged.statusCode).toBe(400);
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(MSG.notifications.unsubscribed);
    const [row] = await db.select().from(profiles).where(eq(profiles.userId, b!.id));
    expect(row!.emailNotificationsEnabled).toBe(false);
  });

  it('sends nothing when the recipient turned e-mail notifications off', async () => {
    const db = t.app.ctx.db;
    const [a, b] = await insertStudents(db, [{ name: 'Quiet Sender' }, { name: 'Quiet Recipient' }]);
    await db.update(profiles).set({ emailNotificationsEnabled: false }).where(eq(profiles.userId, b!.id));
    const res = await asStudent(t.app, await cookieFor(db, a!.id)).post('/api/social/requests', { toUserId: b!.id });
    expect(res.status).toBe(201);
    await new Promise((r) => setTimeout(r, 300));
    expect(outbox.filter((m) => m.to === b!.email)).toEqual([]);
  });
});
