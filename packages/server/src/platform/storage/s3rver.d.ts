// Minimal types for the s3rver test dependency (it ships none).
declare module 's3rver' {
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
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list (the router is the last one). */
    middleware: S3rverMiddleware[];
    /** The filesystem store: where s3rver keeps a bucket's resources (`resource` 'uploads': multipart parts). */
    store: { getResourcePath(bucket: string, key: string | undefined, resource: string): string };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
