import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Config, S3Timeouts } from '../../config.ts';
import { StorageUnavailableError } from '../faults.ts';
import { hashFile } from './hash-file.ts';
import { metaOf, userMetadata } from './s3-object-meta.ts';
import {
  assertSafePath,
  folderOf,
  newObjectMeta,
  type PutOptions,
  type Storage,
  type StoredObjectMeta,
} from './storage.ts';

const is404 = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/**
 * How long the store may take (issue 31) when the settings do not say (S3_CONNECT_TIMEOUT, S3_IDLE_TIMEOUT,
 * S3_ATTEMPTS, whose defaults these are): a connection must open within 2 s, and no request waits more than 5 s for
 * the next bytes of an answer (a store that hangs). One retry after a failure (a 5xx, a reset), so an operation
 * gives up after about 10 s at most; a bounded operation (not a file's bytes streaming up) is also cut at that total.
 */
export const S3_TIMEOUTS: S3Timeouts = { connectMs: 2000, idleMs: 5000, attempts: 2, totalMs: 11_000 };

/** The request handler and retries of an S3 client (stored files and resumable staging). */
export const s3ClientTimeouts = (t: S3Timeouts = S3_TIMEOUTS) => ({
  requestHandler: { connectionTimeout: t.connectMs, requestTimeout: t.idleMs, throwOnRequestTimeout: true },
  maxAttempts: t.attempts,
});

/** Any S3-compatible service (AWS, MinIO, Ceph, R2, …); path-style addressing when an endpoint is given. */
/**
 * `listPageSize`: keys per list request (the server's default, 1000 on S3, when not given); `timeouts`: shorter
 * ones for tests.
 */
export function createS3Storage(
  config: S3Config,
  { listPageSize, timeouts = config.timeouts ?? S3_TIMEOUTS }: { listPageSize?: number; timeouts?: S3Timeouts } = {},
): Storage {
  const client = new S3Client({
    endpoint: config.endpoint,
    region: config.region,
    forcePathStyle: !!config.endpoint,
    credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
    // Plain Content-MD5/length uploads work with every S3-compatible server; the newer default checksums do not.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...s3ClientTimeouts(timeouts),
  });
  const Bucket = config.bucket;

  const send = boundedSender(timeouts);

  const head = async (fullPath: string): Promise<StoredObjectMeta | null> => {
    assertSafePath(fullPath);
    try {
      return metaOf(
        Bucket,
        fullPath,
        await send((o) => client.send(new HeadObjectCommand({ Bucket, Key: fullPath }), o)),
      );
    } catch (err) {
      if (is404(err)) return null;
      throw err;
    }
  };

  const putBody = async (
    fullPath: string,
    body: Buffer | Readable,
    size: number,
    md5: string,
    options: PutOptions,
  ): Promise<StoredObjectMeta> => {
    assertSafePath(fullPath);
    const previous = await head(fullPath);
    const now = new Date().toISOString();
    await send(
      (o) =>
        client.send(
          new PutObjectCommand({
            Bucket,
            Key: fullPath,
            Body: body,
            ContentLength: size,
            ContentMD5: md5,
            ContentType: options.contentType,
            CacheControl: options.cacheControl,
            ContentDisposition: options.contentDisposition,
            ContentEncoding: options.contentEncoding,
            ContentLanguage: options.contentLanguage,
            Metadata: userMetadata(previous?.timeCreated ?? now, now, md5, options.customMetadata ?? {}),
          }),
          o,
        ),
      Buffer.isBuffer(body),
    );
    return newObjectMeta(Bucket, fullPath, { size, md5Hash: md5, created: previous?.timeCreated, at: now }, options);
  };

  const list = async (prefix: string): Promise<string[]> => {
    const Prefix = `${folderOf(prefix)}/`;
    const keys: string[] = [];
    // Marker paging (ListObjects v1) works on every S3-compatible server; some cannot issue v2 continuation tokens.
    let Marker: string | undefined;
    for (;;) {
      const page = await send((o) =>
        client.send(new ListObjectsCommand({ Bucket, Prefix, Marker, MaxKeys: listPageSize }), o),
      );
      for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
      if (!page.IsTruncated || !keys.length) break;
      Marker = page.NextMarker ?? keys[keys.length - 1];
    }
    return keys.sort();
  };

  return {
    driver: 's3',
    put: (fullPath, data, options) =>
      putBody(fullPath, data, data.length, createHash('md5').update(data).digest('base64'), options),
    async putFile(fullPath, sourceFile, options) {
      const { size, md5 } = await hashFile(sourceFile);
      return putBody(fullPath, createReadStream(sourceFile), size, md5, options);
    },
    head,
    async get(fullPath) {
      assertSafePath(fullPath);
      try {
        const out = await send((o) => client.send(new GetObjectCommand({ Bucket, Key: fullPath }), o));
        return { meta: metaOf(Bucket, fullPath, out), body: out.Body as Readable };
      } catch (err) {
        if (is404(err)) return null;
        throw err;
      }
    },
    async delete(fullPath) {
      assertSafePath(fullPath);
      await send((o) => client.send(new DeleteObjectCommand({ Bucket, Key: fullPath }), o));
    },
    async deletePrefix(prefix) {
      const keys = await list(prefix);
      for (let i = 0; i < keys.length; i += 1000) {
        const batch = keys.slice(i, i + 1000);
        const out = await send((o) =>
          client.send(
            new DeleteObjectsCommand({ Bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
            o,
          ),
        );
        if (out.Errors?.length) throw new Error(`could not delete ${out.Errors.length} objects under ${prefix}`);
      }
    },
    list,
    async check() {
      await send((o) => client.send(new HeadBucketCommand({ Bucket }), o));
    },
  };
}

/**
 * Sends one command; a store that fails (5xx, refused, reset, timed out) becomes a StorageUnavailableError (a clear
 * 503), a missing object stays a 404 for the caller. `bounded`: cut at the total timeout too (everything but a
 * file's bytes streaming up, which the idle timeout guards).
 */
function boundedSender(timeouts: S3Timeouts) {
  return async <T>(run: (options: { abortSignal: AbortSignal }) => Promise<T>, bounded = true): Promise<T> => {
    const abort = new AbortController();
    const timer = bounded ? setTimeout(() => abort.abort(), timeouts.totalMs) : undefined;
    try {
      return await run({ abortSignal: abort.signal });
    } catch (err) {
      if (is404(err)) throw err;
      throw new StorageUnavailableError(err);
    } finally {
      clearTimeout(timer);
    }
  };
}
