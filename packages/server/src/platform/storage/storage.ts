import type { Readable } from 'node:stream';
import { trimTrailing } from '@studybuddy/shared/text-scan';

/** Metadata kept with every stored object (requirements §3 "Stored file metadata"). */
export interface StoredObjectMeta {
  bucket: string;
  fullPath: string;
  name: string;
  size: number;
  contentType: string;
  timeCreated: string;
  updated: string;
  md5Hash: string;
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  customMetadata: Record<string, string>;
}

export interface PutOptions {
  contentType: string;
  cacheControl?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  customMetadata?: Record<string, string>;
}

/**
 * The metadata of an object written `at` (ISO time, default now); `created`: when an earlier version at the same
 * path was first written, if any.
 */
export function newObjectMeta(
  bucket: string,
  fullPath: string,
  written: { size: number; md5Hash: string; created?: string; at?: string },
  options: PutOptions,
): StoredObjectMeta {
  const now = written.at ?? new Date().toISOString();
  return {
    bucket,
    fullPath,
    name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
    size: written.size,
    contentType: options.contentType,
    timeCreated: written.created ?? now,
    updated: now,
    md5Hash: written.md5Hash,
    cacheControl: options.cacheControl,
    contentDisposition: options.contentDisposition,
    contentEncoding: options.contentEncoding,
    contentLanguage: options.contentLanguage,
    customMetadata: options.customMetadata ?? {},
  };
}

/** Object storage: local disk by default, any S3-compatible service when configured. */
export interface Storage {
  readonly driver: 'fs' | 's3';
  put(fullPath: string, data: Buffer, options: PutOptions): Promise<StoredObjectMeta>;
  /** Stores the bytes of a local file by streaming them (large uploads never sit in memory). */
  putFile(fullPath: string, sourceFile: string, options: PutOptions): Promise<StoredObjectMeta>;
  /** The object's file on this machine, when the driver keeps objects on local disk (readers may open it there). */
  localFile?(fullPath: string): string;
  /** Metadata, or null when there is no such object. */
  head(fullPath: string): Promise<StoredObjectMeta | null>;
  /** Metadata and a stream of the bytes, or null when there is no such object. */
  get(fullPath: string): Promise<{ meta: StoredObjectMeta; body: Readable } | null>;
  delete(fullPath: string): Promise<void>;
  /** Deletes every object under the folder `prefix` (`users/u1` covers `users/u1/a.jpg`, not `users/u10/…`). */
  deletePrefix(prefix: string): Promise<void>;
  /** Full paths of every object under the folder `prefix`, sorted. */
  list(prefix: string): Promise<string[]>;
  /** Throws when the storage cannot be written. */
  check(): Promise<void>;
}

/** Object paths are relative, '/'-separated, without '..' or empty segments. */
export function assertSafePath(fullPath: string): void {
  const parts = fullPath.split('/');
  if (!fullPath || fullPath.startsWith('/') || parts.some((p) => !p || p === '.' || p === '..')) {
    throw new Error(`invalid object path: ${fullPath}`);
  }
}

/** The folder form of a prefix: no trailing slash, validated like a path. */
export function folderOf(prefix: string): string {
  const clean = trimTrailing(prefix, '/');
  assertSafePath(clean);
  return clean;
}
