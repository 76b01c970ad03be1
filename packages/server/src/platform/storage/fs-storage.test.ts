import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createFsStorage } from './fs-storage.ts';
import { describeStorageDriver } from './storage.suite.ts';

describeStorageDriver('local disk', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'sb-fs-storage-'));
  return { storage: createFsStorage(root), close: () => rm(root, { recursive: true, force: true }) };
});
