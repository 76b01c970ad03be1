import { MSG } from '@studybuddy/shared/messages';

/**
 * Faults of the parts the server stands on (issue 31): the database away (restarting, failing over, its backends
 * ended), the file store not answering, the data disk full. A request that meets one is refused with a clear
 * status the client may retry on — 503 (database, storage) or 507 (disk full) with a Retry-After — never a 500.
 */

/** Seconds a client is told to wait before trying again (Retry-After). */
export const FAULT_RETRY_AFTER_S = 2;

/** A storage driver's failure to reach its store (S3 answering 5xx, timing out, refusing connections). */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** What the client hears (errors.ts turns it into an AppError). */
export interface Fault {
  statusCode: 503 | 507;
  code: 'database_unavailable' | 'storage_unavailable' | 'disk_full';
  message: string;
}

export const DATABASE_UNAVAILABLE: Fault = {
  statusCode: 503,
  code: 'database_unavailable',
  message: MSG.faults.databaseUnavailable,
};
export const STORAGE_UNAVAILABLE: Fault = {
  statusCode: 503,
  code: 'storage_unavailable',
  message: MSG.faults.storageUnavailable,
};
export const DISK_FULL: Fault = { statusCode: 507, code: 'disk_full', message: MSG.faults.diskFull };

/** Whether an error code is one of a fault's (the client may retry after Retry-After). */
export const isFaultCode = (code: string) =>
  code === DATABASE_UNAVAILABLE.code || code === STORAGE_UNAVAILABLE.code || code === DISK_FULL.code;

/** PostgreSQL's connection exceptions (08…), operator interventions (57P01 admin shutdown, 57P02, 57P03 cannot
 * connect now), too many connections (53300); 53100 is disk_full. */
const DB_AWAY_CODE = /^(08...|57P0[1-5]|53300)$/;
const DISK_FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
/** Socket failures (the database's connection: storage drivers wrap theirs in StorageUnavailableError). */
const NET_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
const DB_AWAY_TEXT =
  /Connection terminated|connection error and is not queryable|Client was closed and is not queryable|timeout exceeded when trying to connect|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery|not yet accepting connections)|PGlite is closed/;
const DISK_FULL_TEXT = /No space left on device|could not extend file|disk quota exceeded/i;

/** The fault behind `err` (its causes included), as the refusal the client gets; null for any other error. */
export function faultOf(err: unknown): Fault | null {
  let database = false;
  let storage = false;
  for (let e = err, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : '';
    if (code === '53100' || (typeof code === 'string' && DISK_FULL_ERRNO.has(code)) || DISK_FULL_TEXT.test(text)) {
      return DISK_FULL;
    }
    if (e instanceof StorageUnavailableError) storage = true;
    else if (typeof code === 'string' && (DB_AWAY_CODE.test(code) || NET_ERRNO.has(code))) database = true;
    else if (DB_AWAY_TEXT.test(text)) database = true;
  }
  if (storage) return STORAGE_UNAVAILABLE;
  if (database) return DATABASE_UNAVAILABLE;
  return null;
}
