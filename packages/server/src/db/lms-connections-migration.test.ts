import { rm } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyMigrations } from '../test/migrations-copy.ts';
import { migrationsFolder } from './migrations-folder.ts';

// Migration 0015 moves the Canvas link out of `profiles` into `lms_connections` (owned by the LMS feature).
describe('migration 0015_lms_connections', () => {
  let client: PGlite;
  let before: string;

  beforeAll(async () => {
    client = await PGlite.create();
    before = await copyMigrations({ before: '0015_lms_connections' });
    await migrate(drizzle(client), { migrationsFolder: before });
    for (const [id, url, token] of [
      ['u-linked', 'https://canvas.ucla.edu', 'v1.box-of-u-linked'],
      ['u-blank', '', ''],
      ['u-url-only', 'https://canvas.cmu.edu', ''],
    ] as const) {
      await client.query(`insert into users (id, email) values ($1, $2)`, [id, `${id}@ucla.edu`]);
      await client.query(
        `insert into profiles (user_id, email, college, canvas_url, canvas_access_token) values ($1, $2, 'UCLA', $3, $4)`,
        [id, `${id}@ucla.edu`, url, token],
      );
    }
    await migrate(drizzle(client), { migrationsFolder });
  });

  afterAll(async () => {
    await client?.close();
    if (before) await rm(before, { recursive: true, force: true });
  });

  it('keeps every stored link, in the LMS table, and none for students who never connected', async () => {
    const { rows } = await client.query<{ user_id: string; canvas_url: string; canvas_access_token: string }>(
      `select user_id, canvas_url, canvas_access_token from lms_connections order by user_id`,
    );
    expect(rows).toEqual([
      { user_id: 'u-linked', canvas_url: 'https://canvas.ucla.edu', canvas_access_token: 'v1.box-of-u-linked' },
      { user_id: 'u-url-only', canvas_url: 'https://canvas.cmu.edu', canvas_access_token: '' },
    ]);
  });

  it('leaves the profile without Canvas columns, and a link goes with its account', async () => {
    const { rows } = await client.query<{ column_name: string }>(
      `select column_name from information_schema.columns where table_name = 'profiles' and column_name like 'canvas%'`,
    );
    expect(rows).toEqual([]);
    await client.query(`delete from users where id = 'u-linked'`);
    const left = await client.query(`select 1 from lms_connections where user_id = 'u-linked'`);
    expect(left.rows).toHaveLength(0);
  });
});
