import { createHash, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { APP_VERSION } from '@studybuddy/shared/version';
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { logIn } from '../features/auth/auth-test-helpers.ts';
import { dropPostgres, makePostgres } from '../test/postgres-databases.ts';
import { copyMigrations } from '../test/migrations-copy.ts';
import { migrationsFolder } from './migrations-folder.ts';
import releasesFile from './releases.json' with { type: 'json' };

interface Release {
  version: string;
  migrations: number;
  latest: string;
  sha256: string;
}
interface JournalEntry {
  tag: string;
  when: number;
}

const releases: Release[] = releasesFile.releases;
const journal = async () =>
  (
    JSON.parse(await readFile(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
      entries: JournalEntry[];
    }
  ).entries;

/** The hash releases.json keeps: the first `count` migrations' tags, times and SQL, as they are in the folder. */
async function schemaHash(entries: JournalEntry[]): Promise<string> {
  const hash = createHash('sha256');
  for (const e of entries) {
    hash.update(`${e.tag}\n${e.when}\n`);
    hash.update(await readFile(path.join(migrationsFolder, `${e.tag}.sql`)));
  }
  return hash.digest('hex');
}

const dataOf = (release: Release) =>
  readFile(new URL(`./releases/${release.version}-data.sql`, import.meta.url), 'utf8');

describe('releases and their schemas', () => {
  it('the newest release line is this version, and no released migration was edited since', async () => {
    const entries = await journal();
    const newest = releases.at(-1)!;
    if (newest.version !== APP_VERSION) {
      console.log(
        `releases.json needs ${APP_VERSION}: migrations ${entries.length}, latest ${entries.at(-1)!.tag}, ` +
          `sha256 ${await schemaHash(entries)}`,
      );
    }
    expect(newest.version).toBe(APP_VERSION);
    for (const r of releases) {
      expect(entries.length, r.version).toBeGreaterThanOrEqual(r.migrations);
      expect(entries[r.migrations - 1]!.tag, r.version).toBe(r.latest);
      expect(await schemaHash(entries.slice(0, r.migrations)), `migrations of ${r.version} were edited`).toBe(r.sha256);
    }
  });
});

// The oldest release is the first line: the upgrade every installation may still have to make.
describe.each(releases.slice(0, 1))('upgrading a $version database to this version', (release) => {
  let work: string;
  let app: App | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await app?.close();
    await dropDatabase?.();
    await rm(work, { recursive: true, force: true });
  });

  it('applies the migrations since, keeps every row, and the server serves them', async () => {
    work = await mkdtemp(path.join(tmpdir(), 'sb-upgrade-'));
    const oldMigrations = await copyMigrations(release.migrations, path.join(work, `migrations-${release.version}`));
    const data = await dataOf(release);
    const dataDir = path.join(work, 'data');
    const base = process.env.TEST_DATABASE_URL;
    let databaseUrl: string | undefined;
    if (base) {
      const made = await makePostgres(base);
      dropDatabase = () => dropPostgres(base, made.name);
      databaseUrl = made.url;
      const client = new pg.Client({ connectionString: made.url });
      await client.connect();
      try {
        await migratePg(drizzlePg(client), { migrationsFolder: oldMigrations });
        await client.query(data);
      } finally {
        await client.end();
      }
    } else {
      await mkdir(dataDir, { recursive: true });
      const client = await PGlite.create(path.join(dataDir, 'db'));
      try {
        await migratePglite(drizzlePglite(client), { migrationsFolder: oldMigrations });
        await client.exec(data);
      } finally {
        await client.close();
      }
    }

    // The current server starts on it: the migrations since the release are applied at start.
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    app = await buildApp(config, { logger: false });
    const applied = await app.ctx.db.execute('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect((applied as unknown as { rows: { n: number }[] }).rows[0]!.n).toBe((await journal()).length);

    // The release's students log in with their passwords, and find their profile, chat and group as they were.
    const ada = await logIn(app, 'ada.release@g.ucla.edu', 'released-in-1.0.0');
    const bob = await logIn(app, 'bob.release@g.ucla.edu', 'released-in-1.0.0');
    const profile = await app.inject({ url: '/api/profile', headers: { cookie: ada } });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json()).toMatchObject({ name: 'Ada Release', major: 'Mathematics', college: 'UCLA' });
    const chat = await app.inject({ url: '/api/chats/rel100-ada_rel100-bob/messages', headers: { cookie: bob } });
    expect(chat.statusCode, chat.body).toBe(200);
    expect((chat.json() as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([
      'Shall we study on Thursday?',
      'See you at the library',
    ]);
    const group = await app.inject({ url: '/api/groups/rel100-group/messages', headers: { cookie: ada } });
    expect(group.statusCode, group.body).toBe(200);
    expect((group.json() as { messages: { content: string }[] }).messages.map((m) => m.content)).toEqual([
      'Problem set 4 is up',
    ]);

    // And they go on writing.
    const sent = await app.inject({
      method: 'POST',
      url: '/api/chats/rel100-ada_rel100-bob/messages',
      headers: { cookie: ada },
      payload: { id: randomUUID(), type: 'text', content: 'Upgraded and still here' },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const after = await app.inject({ url: '/api/chats/rel100-ada_rel100-bob/messages', headers: { cookie: bob } });
    expect((after.json() as { messages: { content: string }[] }).messages.map((m) => m.content)).toContain(
      'Upgraded and still here',
    );
  });
});
