import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { DataStore, ERRORS, Upload } from '@tus/server';
import type { Db } from '../../db/connect.ts';
import { deleteUpload, findUpload, takeExpired } from './resumable-uploads.repository.ts';
import { removeFilesOlderThan, RESULT_MS, STAGING_MS, type StagingBackend } from './staging-store.ts';

const BEING_STORED = { status_code: 409, body: 'The upload is complete and being stored.\n' };

/**
 * The tus data store: bytes in the staging backend (disk or S3), the truth about each upload in its
 * resumable_uploads row, which every instance reads. An upload without a row does not exist; a stored one answers
 * as complete from its row alone (its staged bytes are gone), so a client retrying after a lost last response
 * learns it is done.
 */
export class ResumableStore extends DataStore {
  constructor(
    readonly backend: StagingBackend,
    private readonly db: Db,
  ) {
    super();
    // Every upload declares its length when it is created.
    this.extensions = backend.extensions.filter((e) => e !== 'creation-defer-length');
  }

  override async create(upload: Upload): Promise<Upload> {
    try {
      return await this.backend.create(upload);
    } catch (err) {
      // The row was written when the creation was admitted; without bytes it must not count.
      await deleteUpload(this.db, upload.id);
      throw err;
    }
  }

  override async getUpload(id: string): Promise<Upload> {
    const row = await findUpload(this.db, id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.state === 'open') return this.backend.getUpload(id);
    return new Upload({
      id,
      size: row.size,
      offset: row.size,
      metadata: row.metadata,
      creation_date: row.createdAt.toISOString(),
    });
  }

  override async write(stream: Readable, id: string, offset: number): Promise<number> {
    const row = await findUpload(this.db, id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.state !== 'open' || offset >= row.size) {
      // Complete already (an empty PATCH at the end, e.g. a retry on another instance): nothing to write.
      stream.resume();
      await finished(stream);
      return row.size;
    }
    return this.backend.write(stream, id, offset);
  }

  override async remove(id: string): Promise<void> {
    const row = await findUpload(this.db, id);
    if (!row) throw ERRORS.FILE_NOT_FOUND;
    if (row.state === 'storing') throw BEING_STORED;
    await this.backend.discard(id);
    await deleteUpload(this.db, id);
  }

  override getExpiration(): number {
    return this.backend.getExpiration();
  }

  /** Expired uploads are removed by `sweep`, never by tus itself. */
  override async deleteExpired(): Promise<number> {
    return 0;
  }

  /**
   * Removes unfinished uploads older than a day and results older than an hour (every instance sweeps; each row
   * goes to one), then staged bytes and scratch copies no row names any more. How many uploads it removed.
   */
  async sweep(scratchDir: string, log: { warn(obj: object, msg: string): void }): Promise<number> {
    let removed = 0;
    for (;;) {
      const ids = await takeExpired(this.db, { openForMs: STAGING_MS, resultForMs: RESULT_MS, limit: 100 });
      for (const id of ids) {
        await this.backend.discard(id).catch((err: unknown) => log.warn({ err, upload: id }, 'upload sweep'));
      }
      removed += ids.length;
      if (ids.length < 100) break;
    }
    await this.backend.sweepOrphans();
    await removeFilesOlderThan(scratchDir, STAGING_MS);
    return removed;
  }
}
