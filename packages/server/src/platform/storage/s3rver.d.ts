// Minimal types for the s3rver test dependency (it ships none).
declare module 's3rver' {
  import type { Readable } from 'node:stream';

  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    resetOnClose?: boolean;
    configureBuckets?: { name: string; configs?: string[] }[];
    /** false: every request names its bucket in the path (else a host name that is not an IP is taken as one). */
    vhostBuckets?: boolean;
  }
  /** A Koa context, as far as the tests use it. */
  interface S3rverContext {
    method: string;
    path: string;
    query: Record<string, string | string[] | undefined>;
    status: number;
    type: string;
    body: unknown;
  }
  type S3rverMiddleware = (ctx: S3rverContext, next: () => Promise<void>) => Promise<void>;
  /** An object as s3rver's controllers hand it to the store. */
  interface S3rverObject {
    bucket: string;
    key: string;
    metadata: Record<string, string>;
    content: Readable | Buffer;
  }
  interface S3rverStore {
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
    putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
    putPart(
      bucket: string,
      uploadId: string,
      partNumber: string | number,
      content: Readable,
    ): Promise<{ size: number; md5: string }>;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list (the router is the last one). */
    middleware: S3rverMiddleware[];
    /** The filesystem store: where s3rver keeps a bucket's resources (`resource` 'uploads': multipart parts). */
    store: S3rverStore;
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
