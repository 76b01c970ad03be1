import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { compareCandidates, matchScore } from '@studybuddy/shared/match-score';
import type { MatchCandidate, MatchPage } from '@studybuddy/shared/social';
import { YEARS, type Year } from '@studybuddy/shared/limits';
import { createTestApp, type TestApp } from '../../test/test-app.ts';
import { befriend, cookieFor, insertStudents, setCreatedAt, type StudentSpec } from './students.fixture.ts';

/** Small seeded PRNG so a failure can be replayed with the printed seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COURSES = [
  'CS 31',
  'cs  31',
  'Math 32A',
  'MATH 32a ',
  'Physics 1A',
  'Chem 14A',
  'History 1',
  'Art 10',
  'Econ 11',
  'Stats 10',
  'Bio 7',
  'Phil 2',
];
const MAJORS = ['Computer Science', 'computer science ', 'Mathematics', 'History', 'Economics'];
const VIEWERS = 5;
const plantedIndex = (viewer: number, band: number) => 100 + viewer * 4 + band;
const isPlanted = (i: number) => i >= plantedIndex(0, 0) && i < plantedIndex(VIEWERS, 0);

describe('match ranking in SQL equals the shared score rule', () => {
  let t: TestApp;
  const seed = Number(process.env.RANKING_SEED ?? Date.now() % 100000);
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const specs: (StudentSpec & { college: NonNullable<StudentSpec['college']> })[] = [];

  beforeAll(async () => {
    t = await createTestApp();
    for (let i = 0; i < 230; i++) {
      const n = Math.floor(rand() * 6);
      specs.push({
        college: i < 200 ? 'UCLA' : 'CMU',
        name: `Student ${i}`,
        major: pick(MAJORS),
        year: pick(YEARS),
        courses: Array.from({ length: n }, () => pick(COURSES)),
        // Exactly 16 of the 200 have no picture, so the precondition below holds for every seed.
        customPicture: i % 12 !== 11,
      });
    }
    for (let v = 0; v < VIEWERS; v++) plantScoreBands(v);
  });

  /** Four students whose scores against viewer v fall in the bands 0, 3, 5 and 10+, whatever the seed drew. */
  function plantScoreBands(v: number) {
    const viewer = specs[v]!;
    if (viewer.courses!.length === 0) viewer.courses = [pick(COURSES)];
    const otherMajor = MAJORS.find((m) => m.trim().toLowerCase() !== viewer.major!.trim().toLowerCase())!;
    const otherYear = YEARS[(YEARS.indexOf(viewer.year as Year) + 1) % YEARS.length]!;
    const bands = [
      { major: otherMajor, year: otherYear, courses: [] },
      { major: otherMajor, year: viewer.year!, courses: [] },
      { major: viewer.major!, year: otherYear, courses: [] },
      { major: viewer.major!, year: viewer.year!, courses: [viewer.courses![0]!] },
    ];
    bands.forEach((band, k) => Object.assign(specs[plantedIndex(v, k)]!, band, { customPicture: true }));
  }
  afterAll(() => t?.close());

  it(`ranks 200 random students like the rule, page after page (seed ${seed})`, async () => {
    const db = t.app.ctx.db;
    const students = await insertStudents(db, specs);
    // Many ties on purpose: groups with identical creation times exercise the id tie-break.
    const base = Date.parse('2024-09-01T00:00:00Z');
    for (let g = 0; g < 20; g++) {
      const ids = students.filter((_, i) => i % 20 === g && rand() > 0.3).map((s) => s.id);
      await setCreatedAt(db, ids, new Date(base + (g % 7) * 1000));
    }
    const created = new Map(
      (
        (await db.execute(
          sql`SELECT user_id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS k FROM profiles`,
        )) as unknown as { rows: { user_id: string; k: string }[] }
      ).rows.map((r) => [r.user_id, r.k]),
    );

    const friendships = new Set<string>();
    const pairKey = (a: string, b: string) => [a, b].sort().join('|');
    for (let viewerIndex = 0; viewerIndex < VIEWERS; viewerIndex++) {
      const viewer = students[viewerIndex]!;
      const viewerSpec = specs[viewerIndex]!;
      const friends = students
        .filter(
          (s, i) =>
            i !== viewerIndex && i < 200 && !isPlanted(i) && rand() < 0.1 && !friendships.has(pairKey(viewer.id, s.id)),
        )
        .slice(0, 12)
        .map((s) => s.id);
      for (const f of friends) {
        await befriend(db, viewer.id, f);
        friendships.add(pairKey(viewer.id, f));
      }

      const expected = students
        .map((s, i) => ({ s, spec: specs[i]! }))
        .filter(
          ({ s, spec }) =>
            spec.college === viewerSpec.college &&
            s.id !== viewer.id &&
            spec.customPicture !== false &&
            !friendships.has(pairKey(viewer.id, s.id)),
        )
        .map(({ s, spec }) => {
          const score = matchScore(
            { major: viewerSpec.major!, year: viewerSpec.year!, courses: viewerSpec.courses! },
            { major: spec.major!, year: spec.year!, courses: spec.courses! },
          );
          return { id: s.id, createdAt: created.get(s.id)!, ...score };
        })
        .sort(compareCandidates);

      const cookie = await cookieFor(db, viewer.id);
      const got: MatchCandidate[] = [];
      let cursor: string | null = null;
      for (let pageNo = 0; pageNo < 100; pageNo++) {
        const url: string = `/api/social/matches?limit=7${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
        expect(res.statusCode).toBe(200);
        const page = res.json() as MatchPage;
        expect(page.candidates.length).toBeLessThanOrEqual(7);
        got.push(...page.candidates);
        cursor = page.nextCursor;
        if (!cursor) break;
      }
      expect(got.map((c) => ({ id: c.uid, score: c.score, sharedCourses: c.sharedCourses }))).toEqual(
        expected.map((e) => ({ id: e.id, score: e.score, sharedCourses: e.sharedCourses })),
      );
      // At most 16 without a picture and 12 friends are left out of the 199 others.
      expect(expected.length).toBeGreaterThan(150);
      // Every score band of the rule was exercised.
      expect(new Set(expected.map((e) => Math.min(e.score, 10))).size).toBeGreaterThanOrEqual(4);
    }
  });
});
