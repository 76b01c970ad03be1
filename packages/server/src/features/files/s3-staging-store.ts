import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { S3 } from '@aws-sdk/client-s3';
import type { KvStore } from '@tus/server';
import { S3Store, type MetadataValue } from '@tus/s3-store';
import type { S3Config } from '../../config.ts';
import { StorageUnavailableError } from '../../platform/faults.ts';
import { s3ClientTimeouts } from '../../platform/storage/s3-storage.ts';
import { RESULT_MS, STAGING_MS, type StagingBackend } from './staging-store.ts';

/** Where tus uploads live in the bucket: apart from stored files (a lifecycle rule may expire this prefix). */
export const S3_STAGING_PREFIX = 'resumable/';

/** Upload infos cached per instance (they never change once written: the length is fixed at creation). */
class BoundedCache implements KvStore<MetadataValue> {
  private readonly map = new Map<string, MetadataValue>();
  constructor(private readonly max: number) {}
  async get(key: string) {
    return this.map.get(key);
  }
  async set(key: string, value: MetadataValue) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  async delete(key: string) {
    this.map.delete(key);
  }
}

const is404 = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;

/** Every object key the tus store names (`<id>`, `<id>.info`, `<id>.part`) under `prefix`. */
function prefixKeys(client: S3, prefix: string) {
  const within = (key: string | undefined) => (key === undefined || key.startsWith(prefix) ? key : prefix + key);
  client.middlewareStack.add(
    (next) => async (args) => {
      const input = args.input as { Key?: string; Prefix?: string; Delete?: { Objects?: { Key?: string }[] } };
      if ('Key' in input) input.Key = within(input.Key);
      for (const o of input.Delete?.Objects ?? []) o.Key = within(o.Key);
      return next(args);
    },
    { step: 'initialize', name: 'studybuddyStagingPrefix' },
  );
}

/**
 * A store that fails (a 5xx, refused, reset or timed out: no answer at all) is a StorageUnavailableError, which
 * the upload routes answer with a clear 503; its other answers (NoSuchUpload, NoSuchKey…) stay as tus expects them.
 */
function storeFailuresAreUnavailable(client: S3) {
  client.middlewareStack.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (err) {
        const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === undefined || status >= 500) throw new StorageUnavailableError(err);
        throw err;
      }
    },
    { step: 'initialize', name: 'studybuddyStoreUnavailable' },
  );
}

/**
 * Staging in the S3 bucket (STORAGE=s3) through @tus/s3-store: every PATCH goes into an S3 multipart upload (parts
 * under 5 MB wait as `<id>.part`), so any instance can resume any upload. Nothing of it is kept on local disk
 * but the complete file while it is checked and stored.
 */
export class S3StagingStore extends S3Store implements StagingBackend {
  constructor(config: S3Config) {
    super({
      s3ClientConfig: {
        bucket: config.bucket,
        endpoint: config.endpoint,
        region: config.region,
        forcePathStyle: !!config.endpoint,
        credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
        // As platform/storage/s3-storage.ts: plain requests every S3-compatible server accepts.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        // The same bounds as stored files (issue 31): a store that hangs fails the PATCH, it never holds it.
        ...s3ClientTimeouts(config.timeouts),
      },
      expirationPeriodInMilliseconds: STAGING_MS,
      // Expiry is our sweep's job (and a lifecycle rule's, if the bucket has one), not object tags.
      useTags: false,
      cache: new BoundedCache(1000),
    });
    prefixKeys(this.client, S3_STAGING_PREFIX);
    storeFailuresAreUnavailable(this.client);
  }

  async localCopy(id: string, scratchDir: string) {
    await mkdir(scratchDir, { recursive: true });
    const file = path.join(scratchDir, `${id}.${randomBytes(6).toString('hex')}`);
    try {
      await pipeline(await this.read(id), createWriteStream(file));
    } catch (err) {
      await rm(file, { force: true });
      throw err;
    }
    return { file, release: () => rm(file, { force: true }) };
  }

  async discard(id: string): Promise<void> {
    try {
      const { 'upload-id': UploadId } = await this.getMetadata(id);
      await this.client.abortMultipartUpload({ Bucket: this.bucket, Key: id, UploadId }).catch((err: unknown) => {
        // A completed (or already aborted) multipart upload is no longer there.
        if (!is404(err)) throw err;
      });
    } catch (err) {
      if (!is404(err)) throw err;
    }
    await this.client.deleteObjects({
      Bucket: this.bucket,
      Delete: { Objects: [{ Key: id }, { Key: this.infoKey(id) }, { Key: this.partKey(id, true) }], Quiet: true },
    });
    await this.clearCache(id);
  }

  /** Objects under the staging prefix older than any upload may live. */
  async sweepOrphans(now = Date.now()): Promise<number> {
    const old: string[] = [];
    let Marker: string | undefined;
    for (;;) {
      const page = await this.client.listObjects({ Bucket: this.bucket, Prefix: S3_STAGING_PREFIX, Marker });
      for (const o of page.Contents ?? []) {
        if (o.Key && o.LastModified && now - o.LastModified.getTime() > STAGING_MS + RESULT_MS) old.push(o.Key);
      }
      const last = page.Contents?.[page.Contents.length - 1]?.Key;
      if (!page.IsTruncated || !last) break;
      Marker = page.NextMarker ?? last;
    }
    for (let i = 0; i < old.length; i += 1000) {
      const Objects = old.slice(i, i + 1000).map((Key) => ({ Key }));
      await this.client.deleteObjects({ Bucket: this.bucket, Delete: { Objects, Quiet: true } });
    }
    return old.length;
  }
}
