import { describe, expect, it } from 'vitest';
import { MSG } from '@studybuddy/shared/messages';
import { AppError, knownError } from './errors.ts';
import { faultOf, StorageUnavailableError } from './faults.ts';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });
/** Drizzle's wrapping of a failed query: the driver's error as its cause. */
const failedQuery = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('faults of the parts the server stands on (issue 31)', () => {
  it('names the database away: connection refused, ended backends, a restart, a pool that cannot connect', () => {
    for (const err of [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006', 'connection failure'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
      new Error('timeout exceeded when trying to connect'),
      failedQuery(new Error('Connection terminated unexpectedly')),
    ]) {
      expect(faultOf(err)?.code, err.message).toBe('database_unavailable');
    }
  });

  it('names the disk full (PostgreSQL 53100, ENOSPC, EDQUOT), before the part that met it', () => {
    for (const err of [
      pgError('53100', 'could not extend file "base/5/16384": No space left on device'),
      Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }),
      Object.assign(new Error('EDQUOT: disk quota exceeded'), { code: 'EDQUOT' }),
      new StorageUnavailableError(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' })),
      failedQuery(new Error('could not write to file "pg_wal/xlogtemp.1": No space left on device')),
    ]) {
      expect(faultOf(err)?.code, err.message).toBe('disk_full');
    }
  });

  it('names the storage away only through its driver, and leaves every other error alone', () => {
    expect(faultOf(new StorageUnavailableError(new Error('socket hang up')))?.code).toBe('storage_unavailable');
    expect(faultOf(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBeNull();
    expect(faultOf(pgError('23505', 'duplicate key value violates unique constraint'))).toBeNull();
    expect(faultOf(undefined)).toBeNull();
  });

  it('turns a fault into its clear refusal, and keeps an AppError as it is', () => {
    const refusal = knownError(pgError('57P01', 'terminating connection due to administrator command'));
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ statusCode: 503, code: 'database_unavailable' });
    expect(refusal?.message).toBe(MSG.faults.databaseUnavailable);
    expect(knownError(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }))).toMatchObject({
      statusCode: 507,
      message: MSG.faults.diskFull,
    });
    const own = new AppError(404, 'not_found', 'Not found');
    expect(knownError(own)).toBe(own);
    expect(knownError(new Error('a bug'))).toBeNull();
  });
});
