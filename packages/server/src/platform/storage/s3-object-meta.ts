import path from 'node:path';
import type { HeadObjectCommandOutput } from '@aws-sdk/client-s3';
import type { StoredObjectMeta } from './storage.ts';

// Our own fields ride along as S3 user metadata (x-amz-meta-*); custom metadata is base64url JSON so that
// any key or value (case, non-ASCII) survives the trip.
const M_CREATED = 'sb-time-created';
const M_UPDATED = 'sb-updated';
const M_MD5 = 'sb-md5';
const M_CUSTOM = 'sb-custom';

/** The user metadata an object is stored with: our times, its MD5 and the caller's own fields. */
export function userMetadata(
  created: string,
  updated: string,
  md5: string,
  customMetadata: Record<string, string>,
): Record<string, string> {
  return {
    [M_CREATED]: created,
    [M_UPDATED]: updated,
    [M_MD5]: md5,
    [M_CUSTOM]: Buffer.from(JSON.stringify(customMetadata)).toString('base64url'),
  };
}

/** A stored object's metadata from its HEAD (or GET) answer. */
export function metaOf(bucket: string, fullPath: string, out: HeadObjectCommandOutput): StoredObjectMeta {
  const m = out.Metadata ?? {};
  const modified = (out.LastModified ?? new Date()).toISOString();
  let customMetadata: Record<string, string> = {};
  if (m[M_CUSTOM]) {
    customMetadata = JSON.parse(Buffer.from(m[M_CUSTOM], 'base64url').toString('utf8')) as Record<string, string>;
  }
  return {
    bucket,
    fullPath,
    name: path.posix.basename(fullPath),
    size: out.ContentLength ?? 0,
    contentType: out.ContentType ?? 'application/octet-stream',
    timeCreated: m[M_CREATED] ?? modified,
    updated: m[M_UPDATED] ?? modified,
    md5Hash: m[M_MD5] ?? '',
    cacheControl: out.CacheControl,
    contentDisposition: out.ContentDisposition,
    contentEncoding: out.ContentEncoding,
    contentLanguage: out.ContentLanguage,
    customMetadata,
  };
}
