// `npm run backup -- [--out FILE] [--data-dir DIR]`: one .tar.gz of the embedded database, files and secret key.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { backupDataDir, BackupError } from '../platform/backup/backup.ts';
import { dataDirOf, formatBytes, userPath } from './backup-args.ts';

const shortPath = (file: string) => {
  const rel = path.relative(userPath('.'), file);
  return rel.startsWith('..') || path.isAbsolute(rel) ? file : rel;
};

const usage = 'Usage: npm run backup -- [--out FILE] [--data-dir DIR]';

try {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'data-dir': { type: 'string' } } });
  const dataDir = dataDirOf(values['data-dir']);
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
  const out = userPath(values.out ?? `studybuddy-backup-${stamp}.tar.gz`);
  const r = await backupDataDir({ dataDir, out });
  const m = r.manifest;
  console.log(
    [
      `Backup written: ${shortPath(r.file)} (${formatBytes(r.bytes)}) in ${(r.ms / 1000).toFixed(1)} s`,
      r.serverPid === null
        ? '  made with the server stopped'
        : `  made by the running server (pid ${r.serverPid}), consistent while it served`,
      `  database: ${m.database.migrations.applied} migrations (${m.database.migrations.latest ?? 'none'})`,
      m.files.storage === 's3'
        ? '  files: in S3, not in this archive: copy the bucket (README, Back-up and restore)'
        : `  files: ${m.files.count} stored (${formatBytes(m.files.bytes)})`,
      '  The archive holds the secret key: keep it as private as the data dir.',
    ].join('\n'),
  );
} catch (err) {
  if (err instanceof BackupError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
    console.error(`Backup failed: ${(err as Error).message}\n${usage}`);
    process.exit(1);
  }
  throw err;
}
