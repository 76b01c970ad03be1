import path from 'node:path';
import type { Config } from '../../config.ts';
import { createFsStorage } from './fs-storage.ts';
import type { Storage } from './storage.ts';

/**
 * The storage driver the configuration asks for: `STORAGE=s3` with `S3_*`, else files under `DATA_DIR/files`. The
 * S3 driver is loaded only when asked for: the AWS SDK costs every start of a server on disk storage half a second
 * of CPU (issue 32).
 */
export async function createStorage(config: Pick<Config, 'storage' | 's3' | 'dataDir'>): Promise<Storage> {
  if (config.storage === 's3') {
    if (!config.s3) throw new Error('STORAGE=s3 needs the S3_* settings');
    const { createS3Storage } = await import('./s3-storage.ts');
    return createS3Storage(config.s3);
  }
  return createFsStorage(path.join(config.dataDir, 'files'));
}
