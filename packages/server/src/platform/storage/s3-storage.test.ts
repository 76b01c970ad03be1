import { createS3Storage } from './s3-storage.ts';
import { startLocalS3 } from './s3-test-server.ts';
import { describeStorageDriver } from './storage.suite.ts';

const LIST_PAGE = 20;

// The same suite as the disk driver, against an S3-compatible server (s3rver) started by the test; list pages of
// 20 keys, so that listing more than a page needs tens of objects, not a thousand.
describeStorageDriver('S3 (s3rver)', async () => {
  const s3 = await startLocalS3();
  return {
    storage: createS3Storage(s3.config, { listPageSize: LIST_PAGE }),
    close: () => s3.close(),
    listPage: LIST_PAGE,
  };
});
