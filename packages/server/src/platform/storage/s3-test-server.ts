import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Config } from '../../config.ts';

export interface LocalS3 {
  config: S3Config;
  /** The same settings as environment variables (STORAGE=s3 and S3_*). */
  env: Record<string, string>;
  close(): Promise<void>;
}

const noSuchUpload = (ctx: { status: number; type: string; body: unknown }) => {
  ctx.status = 404;
  ctx.type = 'application/xml';
  ctx.body =
    '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code>' +
    '<Message>The specified upload does not exist.</Message></Error>';
};

/**
 * ListParts and AbortMultipartUpload, which s3rver lacks and @tus/s3-store needs (every S3 service has them),
 * answered from the parts s3rver keeps on disk (`<uploads>/<uploadId>/<partNumber>` and `.md5`). As on S3, an
 * upload that was completed or aborted is gone: NoSuchUpload.
 */
function addMultipartListing(server: S3rver) {
  const handle: S3rver['middleware'][number] = async (ctx, next) => {
    const uploadId = ctx.query.uploadId;
    const [bucket, ...key] = ctx.path.split('/').filter(Boolean);
    const listing = ctx.method === 'GET' && typeof uploadId === 'string' && /^[0-9a-f]+$/.test(uploadId);
    const aborting = ctx.method === 'DELETE' && typeof uploadId === 'string' && /^[0-9a-f]+$/.test(uploadId);
    if (!bucket || !key.length || (!listing && !aborting)) return next();
    const dir = path.join(server.store.getResourcePath(bucket, undefined, 'uploads'), uploadId as string);
    const names = await readdir(dir).catch(() => null);
    if (!names) return noSuchUpload(ctx);
    if (aborting) {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    const numbers = names.filter((n) => /^\d+$/.test(n)).map(Number);
    const parts = await Promise.all(
      numbers
        .sort((a, b) => a - b)
        .map(async (n) => {
          const file = path.join(dir, String(n));
          const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
          return { PartNumber: n, ETag: `"${md5}"`, Size: info.size, LastModified: info.mtime.toISOString() };
        }),
    );
    ctx.body = {
      ListPartsResult: {
        Bucket: bucket,
        Key: key.map(decodeURIComponent).join('/'),
        UploadId: uploadId,
        IsTruncated: false,
        Part: parts,
      },
    };
  };
  // Just before the router (the last middleware), after s3rver's XML encoding of plain-object bodies.
  server.middleware.splice(server.middleware.length - 1, 0, handle);
}

/** An S3-compatible server (s3rver) on a free loopback port with one empty bucket, for tests. */
export async function startLocalS3(bucket = 'studybuddy-test'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(tmpdir(), 'sb-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  addMultipartListing(server);
  const { port } = await server.run();
  const config: S3Config = {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    region: 'us-east-1',
  };
  return {
    config,
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
