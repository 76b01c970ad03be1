import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '@studybuddy/shared/social';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { asStudent, befriend, cookieFor, insertStudents, type Student } from './students.fixture.ts';

describe('user search', () => {
  let t: TestApp;
  let me: Student;
  let api: ReturnType<typeof asStudent>;
  const byName = new Map<string, string>();

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.app.ctx.db;
    const specs = [
      { name: 'Jo Self', courses: ['CS 31', 'Math 32A'] },
      { name: 'John Smith', courses: ['cs 31'], major: 'History', year: 'Senior' },
      { name: 'Jo Ann Lee', major: 'History', year: 'Senior' },
      { name: 'JOANNA Upper', major: 'History', year: 'Senior' },
      { name: 'Bob Jones', major: 'History', year: 'Senior' },
      { name: 'John Friend' },
      { name: 'John Carnegie', college: 'CMU' as const },
      { name: 'Jordan Incomplete', customPicture: false },
      { name: '50% Jo_ke' },
    ];
    const made = await insertStudents(db, specs);
    specs.forEach((s, i) => byName.set(s.name, made[i]!.id));
    me = made[0]!;
    await befriend(db, me.id, byName.get('John Friend')!);
    api = asStudent(t.app, await cookieFor(db, me.id));
  });
  afterAll(() => t?.close());

  const names = async (q: string) => {
    const res = await api.get<SearchResult>(`/api/social/search?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    return res.body.users.map((u) => u.name);
  };

  it("'jo' finds 'John' and 'Jo Ann', case-insensitively, and nobody whose name only contains it", async () => {
    expect(await names('jo')).toEqual(['Jo Ann Lee', 'JOANNA Upper', 'John Smith']);
    expect(await names('JO')).toEqual(['Jo Ann Lee', 'JOANNA Upper', 'John Smith']);
    expect(await names('jo a')).toEqual(['Jo Ann Lee']);
    expect(await names('  john ')).toEqual(['John Smith']);
  });

  it('excludes self, friends, other colleges and incomplete profiles', async () => {
    const found = await names('jo');
    for (const excluded of ['Jo Self', 'John Friend', 'John Carnegie', 'Jordan Incomplete']) {
      expect(found).not.toContain(excluded);
    }
  });

  it('treats % and _ literally', async () => {
    expect(await names('%')).toEqual([]);
    expect(await names('_')).toEqual([]);
    expect(await names('50%')).toEqual(['50% Jo_ke']);
    expect(await names('50% jo_')).toEqual(['50% Jo_ke']);
  });

  it('returns candidates with score, shared courses and request state for the match finder card', async () => {
    const res = await api.get<SearchResult>('/api/social/search?q=john');
    expect(res.body.users).toEqual([
      expect.objectContaining({
        uid: byName.get('John Smith'),
        college: 'UCLA',
        score: 10,
        sharedCourses: ['CS 31'],
        request: { kind: 'none' },
      }),
    ]);
    expect(Object.keys(res.body.users[0]!)).not.toContain('email');
  });

  it('refuses an empty or overlong query with 400', async () => {
    expect((await api.get('/api/social/search?q=')).status).toBe(400);
    expect((await api.get('/api/social/search?q=%20%20')).status).toBe(400);
    expect((await api.get(`/api/social/search?q=${'a'.repeat(101)}`)).status).toBe(400);
    expect((await api.get('/api/social/search')).status).toBe(400);
  });
});
