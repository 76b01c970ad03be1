import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type S3rver from 's3rver';
import type { S3Config } from '../../config.ts';
import { startS3rver } from './s3rver-store.ts';

export interface LocalS3 {
  config: S3Config;
  /** The same settings as environment variables (STORAGE=s3 and S3_*). */
  env: Record<string, string>;
  /** The s3rver itself, for a test that watches what it does with a request. */
  server: S3rver;
  close(): Promise<void>;
}

/** An S3-compatible server (s3rver) on a free loopback port with one empty bucket, for tests. */
export async function startLocalS3(bucket = 'studybuddy-test'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'sb-s3-'));
  const { server, port } = await startS3rver({ address: '127.0.0.1', port: 0, directory, buckets: [bucket] });
  const config: S3Config = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
  };
  return {
    config,
    server,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: config.endpoint!,
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: config.accessKeyId,
      S3_SECRET_ACCESS_KEY: config.secretAccessKey,
      S3_REGION: config.region,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
