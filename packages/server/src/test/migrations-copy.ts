import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../db/migrations-folder.ts';

/**
 * A copy of the migrations whose journal keeps only the first `upTo` entries (a count, or those before a tag): a
 * database migrated with it is where an older release or migration left one. In `dir`, or in a new temp folder.
 */
export async function copyMigrations(upTo: number | { before: string }, dir?: string): Promise<string> {
  const target = dir ?? (await mkdtemp(path.join(tmpdir(), 'sb-migrations-')));
  await cp(migrationsFolder, target, { recursive: true });
  const journalFile = path.join(target, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const count = typeof upTo === 'number' ? upTo : journal.entries.findIndex((e) => e.tag === upTo.before);
  if (count < 1) throw new Error(`no migration before ${JSON.stringify(upTo)}`);
  journal.entries = journal.entries.slice(0, count);
  await writeFile(journalFile, JSON.stringify(journal));
  return target;
}
