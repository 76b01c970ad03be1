import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FriendsList, NotificationsList } from '@studybuddy/shared/social';
import { asStudent, cookieFor, insertStudents } from '../features/social/students.fixture.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { seedSocialDemo } from './social-demo.ts';

describe('social demo data', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t?.close());

  it('makes the given friends and pending requests, once, however often it runs', async () => {
    const db = t.app.ctx.db;
    const [a, b, c] = await insertStudents(db, [{ name: 'Demo A' }, { name: 'Demo B' }, { name: 'Demo C' }]);
    const demo = {
      friends: [[a!.email, b!.email]] as [string, string][],
      requests: [
        [c!.email, a!.email],
        [a!.email, b!.email],
        ['nobody@g.ucla.edu', a!.email],
      ] as [string, string][],
    };
    await seedSocialDemo(db, demo);
    await seedSocialDemo(db, demo);
    const api = asStudent(t.app, await cookieFor(db, a!.id));
    expect((await api.get<FriendsList>('/api/social/friends')).body.friends.map((f) => f.uid)).toEqual([b!.id]);
    expect(
      (await api.get<NotificationsList>('/api/social/notifications')).body.requests.map((r) => r.from.uid),
    ).toEqual([c!.id]);
  });
});
