import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchPage } from '@studybuddy/shared/social';
import { freeTogetherLabel } from '@studybuddy/shared/schedule';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { createUser, type TestUser } from '../../test/users.ts';

const week = (free: (cell: number) => boolean) => Array.from({ length: 336 }, (_, i) => (free(i) ? '1' : '0')).join('');
const TUESDAY_2_TO_4 = (c: number) => c >= 48 + 28 && c < 48 + 32;

describe('matching that knows free time (issue 27 part 5)', () => {
  let t: TestApp;
  let viewer: TestUser;
  let older: TestUser;
  let newer: TestUser;
  let sharer: TestUser;
  beforeAll(async () => {
    t = await createTestApp();
    // Same college, major and year, no courses: equal scores, so the spec's order is newest first.
    viewer = await createUser(t.app, { name: 'Viewer', major: 'History', year: 'Senior' });
    sharer = await createUser(t.app, { name: 'Course sharer', major: 'Art', year: 'Freshman', courses: [] });
    older = await createUser(t.app, { name: 'Older', major: 'History', year: 'Senior' });
    newer = await createUser(t.app, { name: 'Newer', major: 'History', year: 'Senior' });
  });
  afterAll(() => t.close());

  const save = (u: TestUser, timeZone: string, cells: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/schedule/week',
      headers: { cookie: u.cookie },
      payload: { timeZone, cells },
    });
  const matches = async (u: TestUser, cursor?: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/social/matches?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      headers: { cookie: u.cookie },
    });
    expect(res.statusCode).toBe(200);
    return res.json<MatchPage>();
  };
  const all = async (u: TestUser) => {
    const out: MatchPage['candidates'] = [];
    let cursor: string | undefined;
    do {
      const page = await matches(u, cursor);
      out.push(...page.candidates);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  };

  it('ranks equal scores by free time in common, page by page, and shows "free together" on the card', async () => {
    const before = await all(viewer);
    expect(before.map((c) => c.name)).toEqual(['Newer', 'Older', 'Course sharer']);
    expect(before.every((c) => c.freeTogether === null || c.freeTogether === undefined)).toBe(true);

    await save(viewer, 'Europe/Berlin', week(TUESDAY_2_TO_4));
    // The older student shares Tuesday 14:00–16:00 Berlin (08:00–10:00 in New York); the newer none of it.
    expect(
      (
        await save(
          older,
          'America/New_York',
          week((c) => c >= 48 + 16 && c < 48 + 20),
        )
      ).statusCode,
    ).toBe(200);
    await save(
      newer,
      'Europe/Berlin',
      week((c) => c < 48),
    );
    await save(
      sharer,
      'Europe/Berlin',
      week(() => true),
    );

    const ranked = await all(viewer);
    // The further signal never overrides the score (Art/Freshman scores 0 and stays last, though free all week).
    expect(ranked.map((c) => c.name)).toEqual(['Older', 'Newer', 'Course sharer']);
    const card = ranked[0]!.freeTogether!;
    expect(freeTogetherLabel(card)).toBe('Tue 14:00–16:00');
    expect(ranked[1]!.freeTogether).toBeNull();
    expect(freeTogetherLabel(ranked[2]!.freeTogether!)).toBe('Tue 14:00–16:00');
  });
});
