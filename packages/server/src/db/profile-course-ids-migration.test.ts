import { rm } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMigrations } from '../test/migrations-copy.ts';
import { migrationsFolder } from './migrations-folder.ts';

const ALL_TYPES = ['assignment', 'quiz', 'discussion', 'module_item'];
const item = (id: string, courseId: string) => ({ id, course_id: courseId, name: `Item ${id}`, type: 'assignment' });

// Migration 0016 re-keys the profile courses the server cannot vouch for (issue 23, point 3).
describe('migration 0016_profile_course_ids', () => {
  let client: PGlite;
  let before: string;
  const coursesOf = async (userId: string) =>
    (
      await client.query<{ courses: { id: string; name: string }[] }>(
        `select courses from profiles where user_id = $1`,
        [userId],
      )
    ).rows[0]!.courses;
  const documentCourse = async (id: string) =>
    (await client.query<{ course_id: string }>(`select course_id from course_documents where id = $1`, [id])).rows[0]!
      .course_id;

  beforeAll(async () => {
    client = await PGlite.create();
    before = await copyMigrations({ before: '0016_profile_course_ids' });
    await migrate(drizzle(client), { migrationsFolder: before });
    const profiles: [string, { id: string; name: string }[]][] = [
      // Typed by hand through the API with a hot group's course id, plus one the web app keyed.
      [
        'u-typed',
        [
          { id: '1100', name: 'Borrowed' },
          { id: 'manual-1', name: 'Hand typed' },
        ],
      ],
      // Imported from Canvas; the coursework cache says which Canvas answered.
      [
        'u-canvas',
        [
          { id: '1100', name: 'CS 1100' },
          { id: '1101', name: 'MATH 1101' },
          { id: '1102', name: 'Hidden tabs' },
          { id: '9001', name: 'Refused' },
          { id: 'seed-0', name: 'Seeded' },
        ],
      ],
      ['u-none', []],
    ];
    for (const [id, courses] of profiles) {
      await client.query(`insert into users (id, email) values ($1, $2)`, [id, `${id}@ucla.edu`]);
      await client.query(`insert into profiles (user_id, email, college, courses) values ($1, $2, 'UCLA', $3)`, [
        id,
        `${id}@ucla.edu`,
        JSON.stringify(courses),
      ]);
    }
    await client.query(
      `insert into coursework_cache (user_id, connection_id, courses_key, courses, coursework, skipped_courses, fetched_at)
       values ('u-canvas', 'c', '1101,1102,9001', $1, $2, $3, now())`,
      [
        JSON.stringify([
          { id: '1101', name: 'MATH 1101' },
          { id: '1102', name: 'Hidden tabs' },
          { id: '9001', name: 'Refused' },
        ]),
        JSON.stringify([item('assignment_1', '1100')]),
        JSON.stringify([
          { course_id: '1102', skipped_types: ['quiz', 'discussion'] },
          { course_id: '9001', skipped_types: ALL_TYPES },
        ]),
      ],
    );
    for (const [id, userId, courseId] of [
      ['d-typed', 'u-typed', '1100'],
      ['d-canvas', 'u-canvas', '1100'],
      ['d-refused', 'u-canvas', '9001'],
    ]) {
      await client.query(
        `insert into course_documents (id, user_id, course_id, name, type, source) values ($1, $2, $3, 'notes.pdf', 'document', 'local')`,
        [id, userId, courseId],
      );
    }
    await migrate(drizzle(client), { migrationsFolder });
  });

  afterAll(async () => {
    await client?.close();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('gives every course the imported coursework does not hold a server-made id, in place, names kept', async () => {
    const typed = await coursesOf('u-typed');
    expect(typed.map((c) => c.name)).toEqual(['Borrowed', 'Hand typed']);
    expect(typed.every((c) => /^manual-[0-9a-f-]{36}$/.test(c.id))).toBe(true);
    expect(new Set(typed.map((c) => c.id)).size).toBe(2);

    const canvas = await coursesOf('u-canvas');
    expect(canvas.map((c) => c.name)).toEqual(['CS 1100', 'MATH 1101', 'Hidden tabs', 'Refused', 'Seeded']);
    // One of its items, the course listed, some lists answered: Canvas's ids stay.
    expect(canvas.slice(0, 3).map((c) => c.id)).toEqual(['1100', '1101', '1102']);
    // Every list refused, or no Canvas data at all: re-keyed.
    expect(canvas[3]!.id).toMatch(/^manual-/);
    expect(canvas[4]!.id).toMatch(/^manual-/);
    expect(await coursesOf('u-none')).toEqual([]);
  });

  it("moves the student's documents of a re-keyed course with it, and no one else's", async () => {
    expect(await documentCourse('d-typed')).toBe((await coursesOf('u-typed'))[0]!.id);
    expect(await documentCourse('d-refused')).toBe((await coursesOf('u-canvas'))[3]!.id);
    expect(await documentCourse('d-canvas')).toBe('1100');
  });
});
