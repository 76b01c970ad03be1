import path from 'node:path';
import type { Config } from '../../config.ts';
import { createFsStorage } from './fs-storage.ts';
import { createS3Storage } from './s3-storage.ts';
import type { Storage } from './storage.ts';

/** The storage driver the configuration asks for: `STORAGE=s3` with `S3_*`, else files under `DATA_DIR/files`. */
export function createStorage(config: Pick<Config, 'storage' | 's3' | 'dataDir'>): Storage {
  if (config.storage === 's3') {
    if (!config.s3) throw new Error('STORAGE=s3 needs the S3_* settings');
    return createS3Storage(config.s3);
  }
  return createFsStorage(path.join(config.dataDir, 'files'));
}
