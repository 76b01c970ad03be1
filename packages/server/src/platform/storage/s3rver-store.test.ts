import { request } from 'node:http';
import { S3 } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalS3, type LocalS3 } from './s3-test-server.ts';

const MB = 1024 * 1024;

/**
 * A PUT whose sender dies after `sent` of the `declared` bytes (as an instance killed mid-upload does): the
 * connection is destroyed once those bytes are written. Resolves when the connection is gone.
 */
function cutPut(url: string, declared: number, sent: Buffer) {
  return new Promise<void>((resolve) => {
    const req = request(url, { method: 'PUT', headers: { 'Content-Length': String(declared) } });
    req.on('response', (res) => {
      res.resume();
      resolve();
    });
    req.on('error', () => resolve());
    req.on('close', () => resolve());
    req.write(sent, () => req.destroy());
  });
}

/**
 * Resolves once s3rver has seen the end of the next PUT it writes (its body complete or its connection gone) and
 * has settled the write, or, where a write never settles (s3rver's own, for a cut body), seen the connection go.
 */
function nextWriteSeen(s3: LocalS3, kind: 'putPart' | 'putObject') {
  const store = s3.server.store;
  return new Promise<void>((resolve) => {
    const done = () => setImmediate(resolve);
    if (kind === 'putPart') {
      const original = store.putPart;
      store.putPart = (bucket, uploadId, partNumber, content) => {
        store.putPart = original;
        content.once('close', done);
        return original.call(store, bucket, uploadId, partNumber, content).finally(done);
      };
    } else {
      const original = store.putObject;
      store.putObject = (object) => {
        store.putObject = original;
        if (!Buffer.isBuffer(object.content)) object.content.once('close', done);
        return original.call(store, object).finally(done);
      };
    }
  });
}

// The store the tests and compose.yaml run (issue 31 case 5): a write cut off mid-body leaves nothing, as on S3.
describe('s3rver store: a write whose sender died', () => {
  let s3: LocalS3;
  let client: S3;
  const Bucket = 'studybuddy-test';

  beforeAll(async () => {
    s3 = await startLocalS3(Bucket);
    client = new S3({
      endpoint: s3.config.endpoint,
      region: s3.config.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.config.accessKeyId, secretAccessKey: s3.config.secretAccessKey },
    });
  });
  afterAll(async () => {
    client?.destroy();
    await s3?.close();
  });

  it('lists only whole parts after a part was cut off, and the upload completes once it is sent again', async () => {
    const Key = 'resumable/cut-part';
    const { UploadId } = await client.createMultipartUpload({ Bucket, Key });
    const first = Buffer.alloc(5 * MB, 1);
    const second = Buffer.alloc(3 * MB, 2);
    const p1 = await client.uploadPart({ Bucket, Key, UploadId, PartNumber: 1, Body: first });

    // Before: the cut part stayed as a short file without its checksum, and every ListParts answered 500.
    const seen = nextWriteSeen(s3, 'putPart');
    await cutPut(`${s3.config.endpoint}/${Bucket}/${Key}?partNumber=2&uploadId=${UploadId}`, 8 * MB, second);
    await seen;
    const listed = await client.listParts({ Bucket, Key, UploadId });
    expect(listed.Parts?.map((p) => p.PartNumber)).toEqual([1]);

    const p2 = await client.uploadPart({ Bucket, Key, UploadId, PartNumber: 2, Body: second });
    const parts = await client.listParts({ Bucket, Key, UploadId });
    expect(parts.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
      [1, first.length],
      [2, second.length],
    ]);
    await client.completeMultipartUpload({
      Bucket,
      Key,
      UploadId,
      MultipartUpload: {
        Parts: [
          { PartNumber: 1, ETag: p1.ETag },
          { PartNumber: 2, ETag: p2.ETag },
        ],
      },
    });
    const stored = Buffer.from(await (await client.getObject({ Bucket, Key })).Body!.transformToByteArray());
    expect(stored.equals(Buffer.concat([first, second]))).toBe(true);
  });

  it('keeps the previous object when a PUT replacing it is cut off', async () => {
    const Key = 'resumable/cut-object.part';
    const before = Buffer.alloc(2 * MB, 7);
    await client.putObject({ Bucket, Key, Body: before });

    // Before: the object was replaced by the bytes that had arrived.
    const seen = nextWriteSeen(s3, 'putObject');
    await cutPut(`${s3.config.endpoint}/${Bucket}/${Key}`, 4 * MB, Buffer.alloc(1 * MB, 8));
    await seen;
    const after = Buffer.from(await (await client.getObject({ Bucket, Key })).Body!.transformToByteArray());
    expect(after.equals(before)).toBe(true);
    const head = await client.headObject({ Bucket, Key });
    expect(head.ContentLength).toBe(before.length);
  });
});
