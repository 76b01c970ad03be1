// The compose file's S3-compatible store (scripts/container/s3.Containerfile bundles this file): s3rver on plain
// files under S3_DIRECTORY, with the buckets S3_BUCKETS names made at start. For one machine's compose setup;
// a production deployment points S3_* at MinIO, Garage or a cloud bucket instead.
import process from 'node:process';
import { startS3rver } from './s3rver-store.ts';

const address = process.env.S3_ADDRESS ?? '0.0.0.0';
const port = Number(process.env.S3_PORT ?? '9000');
const directory = process.env.S3_DIRECTORY ?? '/data';
const buckets = (process.env.S3_BUCKETS ?? 'studybuddy')
  .split(',')
  .map((b) => b.trim())
  .filter(Boolean);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`S3_PORT must be a port number (0-65535), not "${process.env.S3_PORT}"`);
  process.exit(1);
}
const invalid = buckets.find((b) => !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(b));
if (invalid !== undefined || buckets.length === 0) {
  console.error(
    `S3_BUCKETS must name buckets of 3-63 lower-case letters, digits, dots and dashes, not "${invalid ?? ''}"`,
  );
  process.exit(1);
}

const { server, port: listening } = await startS3rver({ address, port, directory, buckets });
console.log(`S3 store (s3rver) on ${address}:${listening}, files in ${directory}, buckets: ${buckets.join(', ')}`);
let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) process.exit(1);
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  });
}
