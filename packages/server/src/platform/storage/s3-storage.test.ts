import { createS3Storage } from './s3-storage.ts';
import { startLocalS3 } from './s3-test-server.ts';
import { describeStorageDriver } from './storage.suite.ts';

// The same suite as the disk driver, against an S3-compatible server (s3rver) started by the test.
describeStorageDriver('S3 (s3rver)', async () => {
  const s3 = await startLocalS3();
  return { storage: createS3Storage(s3.config), close: () => s3.close() };
});
