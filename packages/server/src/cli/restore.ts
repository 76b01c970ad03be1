// `npm run restore -- <archive> [--data-dir DIR] [--force]`: puts a backup made by `npm run backup` back in place.
import { parseArgs } from 'node:util';
import { restoreArchive, RestoreError } from '../platform/backup/restore.ts';
import { dataDirOf, formatBytes, userPath } from './backup-args.ts';

const usage = 'Usage: npm run restore -- <archive> [--data-dir DIR] [--force]';

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { 'data-dir': { type: 'string' }, force: { type: 'boolean', default: false } },
  });
  if (positionals.length !== 1) throw new RestoreError('name one archive to restore.');
  const archive = userPath(positionals[0]!);
  const dataDir = dataDirOf(values['data-dir']);
  const started = Date.now();
  const m = await restoreArchive({ archive, dataDir, force: values.force });
  console.log(
    [
      `Restored ${archive} into ${dataDir} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      `  backup of ${m.createdAt}: ${m.database.migrations.applied} migrations, ` +
        (m.files.storage === 's3'
          ? 'files in S3 (restore the bucket copy)'
          : `${m.files.count} stored files (${formatBytes(m.files.bytes)})`),
      '  Start the server with this DATA_DIR; it applies any newer migrations at start.',
    ].join('\n'),
  );
} catch (err) {
  if (err instanceof RestoreError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`Restore refused: ${(err as Error).message}\n${usage}`);
    process.exit(1);
  }
  throw err;
}
