import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

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
    // A part is listed once its checksum is written (completeWritesOnly writes it before the part's bytes appear).
    const numbers = names.filter((n) => /^\d+$/.test(n) && names.includes(`${n}.md5`)).map(Number);
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

/**
 * The bytes of `content` into `file` as S3 keeps them: all or nothing. They go to a temporary name first and are
 * renamed into place only once the request body ended and every byte is on disk; a body cut off mid-way (its
 * sender died) leaves nothing behind and is an error. `beforePlacing` runs between the two (the checksum file).
 */
async function writeWhole(file: string, content: Readable | Buffer, beforePlacing: (md5: string) => Promise<void>) {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${randomBytes(6).toString('hex')}.writing`;
  const hash = createHash('md5');
  let size = 0;
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    if (Buffer.isBuffer(content)) {
      count.end(content);
      await pipeline(count, createWriteStream(temporary));
    } else await pipeline(content, count, createWriteStream(temporary));
    const md5 = hash.digest('hex');
    await beforePlacing(md5);
    await rename(temporary, file);
    return { size, md5 };
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/**
 * s3rver writes an object or a part in place and answers once its body was read, not written: a PUT whose sender
 * died mid-body left a short part with no checksum, which made every later ListParts of that upload fail (500), so
 * no other instance could resume it (issue 31 case 5), and a cut PUT of an object replaced the object with its
 * first bytes. As on S3, a write now either lands whole or not at all.
 */
function completeWritesOnly(server: S3rver) {
  const store = server.store;
  store.putPart = async (bucket, uploadId, partNumber, content) => {
    const file = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
    return writeWhole(file, content, (md5) => writeFile(`${file}.md5`, md5));
  };
  store.putObject = async (object) => {
    const file = store.getResourcePath(object.bucket, object.key, 'object');
    return writeWhole(file, object.content, (md5) =>
      store.putMetadata(object.bucket, object.key, object.metadata, md5),
    );
  };
}

export interface S3rverOptions {
  address: string;
  /** 0 picks a free port. */
  port: number;
  /** Where buckets and objects are kept (plain files, so a volume keeps them across restarts). */
  directory: string;
  /** Buckets made at start when missing (an existing bucket and its objects are kept). */
  buckets: string[];
  silent?: boolean;
}

/**
 * s3rver (an S3-compatible server on plain files) with the multipart listing @tus/s3-store needs: the tests' local
 * S3 and the compose file's store (`s3rver-main.ts`). Its credentials are s3rver's fixed S3RVER / S3RVER.
 */
export async function startS3rver(options: S3rverOptions): Promise<{ server: S3rver; port: number }> {
  const server = new S3rver({
    address: options.address,
    port: options.port,
    silent: options.silent ?? true,
    directory: options.directory,
    configureBuckets: options.buckets.map((name) => ({ name })),
    // Path-style requests only (what the server sends): with virtual hosts on, s3rver takes a host name such as
    // compose's `s3` for a bucket's.
    vhostBuckets: false,
  });
  completeWritesOnly(server);
  addMultipartListing(server);
  const { port } = await server.run();
  return { server, port };
}
