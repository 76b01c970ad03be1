// `npm run restore -- <archive | backup name | --newest> [--from DIR] [--data-dir DIR] [--force]`: puts a backup made
// by `npm run backup` or by the schedule (BACKUP_SCHEDULE) back in place; `--list` shows the scheduled backups.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { restoreArchive, RestoreError, restorePostgres } from '../platform/backup/restore.ts';
import { backupSource } from './backup-source.ts';
import { dataDirOf, formatBytes, userPath } from './backup-args.ts';

const usage =
  'Usage: npm run restore -- <archive | backup name | --newest> [--from DIR] [--data-dir DIR] [--force]\n' +
  '       npm run restore -- --list [--from DIR]';

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      from: { type: 'string' },
      newest: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
    },
  });
  const dataDir = dataDirOf(values['data-dir']);
  const source = backupSource(values.from, dataDir);
  if (values.list) {
    const all = await source.store.list();
    if (!all.length) console.log(`No scheduled backups in ${source.store.where}.`);
    for (const b of all.reverse()) console.log(`${b.name}  ${formatBytes(b.bytes)}  stored ${b.written.toISOString()}`);
    process.exit(0);
  }
  const wanted = positionals[0];
  if (positionals.length > 1 || (wanted === undefined) === !values.newest) {
    throw new RestoreError('name one archive or backup to restore, or --newest.');
  }

  let archive: string;
  let temp: string | undefined;
  const local = wanted === undefined ? null : userPath(wanted);
  if (local && existsSync(local)) archive = local;
  else {
    const all = await source.store.list();
    const chosen = values.newest ? all.at(-1) : all.find((b) => b.name === wanted);
    if (!chosen) {
      throw new RestoreError(
        values.newest
          ? `There are no scheduled backups in ${source.store.where}.`
          : `There is no archive at ${local} and no backup named "${wanted}" in ${source.store.where} ` +
            '(npm run restore -- --list shows them).',
      );
    }
    temp = await mkdtemp(path.join(tmpdir(), 'studybuddy-restore-'));
    archive = path.join(temp, chosen.name);
    if (!(await source.store.fetch(chosen.name, archive))) {
      throw new RestoreError(`The backup ${chosen.name} disappeared from ${source.store.where}.`);
    }
    console.log(`Restoring ${chosen.name} (${formatBytes(chosen.bytes)}) from ${source.store.where}`);
  }

  const started = Date.now();
  try {
    const databaseUrl = process.env.DATABASE_URL?.trim();
    const m = databaseUrl
      ? await restorePostgres({ archive, databaseUrl, dataDir })
      : await restoreArchive({ archive, dataDir, force: values.force });
    const into = databaseUrl ? `the database DATABASE_URL names (key and files: ${dataDir})` : dataDir;
    console.log(
      [
        `Restored ${temp ? path.basename(archive) : archive} into ${into} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
        `  backup of ${m.createdAt}: ${m.database.migrations.applied} migrations, ` +
          (m.files.storage === 's3'
            ? 'files in S3 (restore the bucket copy)'
            : `${m.files.count} stored files (${formatBytes(m.files.bytes)})`),
        databaseUrl
          ? '  Start the servers on this database (SECRET_KEY: the key restored above); they apply newer migrations.'
          : '  Start the server with this DATA_DIR; it applies any newer migrations at start.',
      ].join('\n'),
    );
  } finally {
    if (temp) await rm(temp, { recursive: true, force: true });
  }
} catch (err) {
  if (err instanceof RestoreError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`Restore refused: ${(err as Error).message}\n${usage}`);
    process.exit(1);
  }
  throw err;
}
