import { randomBytes } from 'node:crypto';
import pg from 'pg';

async function admin<T>(base: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new database with a random name on the server of `base`, optionally a copy of `template`. */
export async function makePostgres(base: string, template?: string): Promise<{ name: string; url: string }> {
  const name = `sb_test_${randomBytes(6).toString('hex')}`;
  await admin(base, (c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropPostgres(base: string, name: string): Promise<void> {
  await admin(base, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}
