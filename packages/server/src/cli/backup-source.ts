import path from 'node:path';
import { fsBackupStore, s3BackupStore, type BackupStore } from '../platform/backup/backup-store.ts';
import { createS3Storage } from '../platform/storage/s3-storage.ts';
import { dataDirOf, userPath } from './backup-args.ts';

type Env = Record<string, string | undefined>;

/**
 * Where `npm run restore` looks for scheduled backups by name: --from DIR; else, with STORAGE=s3, the bucket's
 * backups/ folder; else the configured DATA_DIR's backups/ folder (DATA_DIR, else ./data: not --data-dir, which
 * names where to restore to).
 */
export function backupSource(
  from: string | undefined,
  staging: string,
  env: Env = process.env,
): { store: BackupStore } {
  if (from) return { store: fsBackupStore(userPath(from)) };
  const s3 = (key: string) => env[key]?.trim() || undefined;
  if (s3('STORAGE') === 's3' && s3('S3_BUCKET') && s3('S3_ACCESS_KEY_ID') && s3('S3_SECRET_ACCESS_KEY')) {
    const storage = createS3Storage({
      endpoint: s3('S3_ENDPOINT'),
      bucket: s3('S3_BUCKET')!,
      accessKeyId: s3('S3_ACCESS_KEY_ID')!,
      secretAccessKey: s3('S3_SECRET_ACCESS_KEY')!,
      region: s3('S3_REGION') ?? 'us-east-1',
    });
    return { store: s3BackupStore(storage, s3('S3_BUCKET')!, staging) };
  }
  return { store: fsBackupStore(path.join(dataDirOf(undefined), 'backups')) };
}
