// The fault bench's own S3 server (s3rver) in a process of its own, run by plain Node: tsx's loader breaks one of
// s3rver's dependencies (generator-function's `module-sync` export). Prints `port <n>` once it listens.
//   node bench/faults/s3-server.mjs <directory> <bucket>
import S3rver from 's3rver';

const [directory, bucket] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory,
  configureBuckets: [{ name: bucket }],
});
const { port } = await server.run();
console.log(`port ${port}`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
