import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Upload } from '@tus/server';
import { uploadedFileSchema, type UploadedFile } from '@studybuddy/shared/files';

/** Unfinished uploads are kept a day; a finished upload's answer an hour (for a client whose last response was lost). */
export const STAGING_MS = 24 * 60 * 60 * 1000;
const RESULT_MS = 60 * 60 * 1000;
const RESULT_SUFFIX = '.result.json';

/**
 * tus staging on local disk. When an upload is complete and stored in the real storage, its staged bytes are
 * deleted and only a small result record stays: a HEAD then still reports the upload as complete (so a client
 * retrying after a lost last response succeeds without re-sending anything) and the result can be fetched.
 */
export class StagingStore extends FileStore {
  constructor(directory: string) {
    super({ directory, expirationPeriodInMilliseconds: STAGING_MS });
  }

  private resultFile(id: string) {
    return path.join(this.directory, `${id}${RESULT_SUFFIX}`);
  }

  async readResult(id: string): Promise<UploadedFile | null> {
    try {
      return uploadedFileSchema.parse(JSON.parse(await readFile(this.resultFile(id), 'utf8')));
    } catch {
      return null;
    }
  }

  /** Records the stored file of a finished upload and drops its staged bytes. */
  async finish(id: string, file: UploadedFile): Promise<void> {
    await writeFile(this.resultFile(id), JSON.stringify(file));
    await rm(path.join(this.directory, id), { force: true });
  }

  override async getUpload(id: string): Promise<Upload> {
    const done = await this.readResult(id);
    if (!done) return super.getUpload(id);
    const info = await this.configstore.get(id);
    if (!info) return super.getUpload(id);
    return new Upload({
      id,
      size: info.size,
      offset: info.size ?? 0,
      metadata: info.metadata,
      creation_date: info.creation_date,
    });
  }

  /** Deletes everything of one upload (bytes, info and result). */
  async discard(id: string): Promise<void> {
    await Promise.all(
      [id, `${id}.json`, `${id}${RESULT_SUFFIX}`].map((n) => rm(path.join(this.directory, n), { force: true })),
    );
  }

  /** The declared sizes of a user's unfinished, unexpired uploads (ids are `<userId>.<random>`). */
  async openUploads(userId: string, now = Date.now()): Promise<number[]> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    const sizes: number[] = [];
    for (const name of names) {
      if (!name.startsWith(`${userId}.`) || !name.endsWith('.json') || name.endsWith(RESULT_SUFFIX)) continue;
      const id = name.slice(0, -'.json'.length);
      if (await this.readResult(id)) continue;
      const info = await this.configstore.get(id);
      const created = info?.creation_date ? Date.parse(info.creation_date) : 0;
      if (info && now - created <= STAGING_MS) sizes.push(info.size ?? 0);
    }
    return sizes;
  }

  /** Removes unfinished uploads older than a day and results older than an hour. */
  async sweep(now = Date.now()): Promise<number> {
    const names = await readdir(this.directory).catch(() => [] as string[]);
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.json') || name.endsWith(RESULT_SUFFIX)) continue;
      const id = name.slice(0, -'.json'.length);
      const result = await stat(this.resultFile(id)).catch(() => null);
      const info = await this.configstore.get(id);
      const created = info?.creation_date ? Date.parse(info.creation_date) : 0;
      const expired = result ? now - result.mtimeMs > RESULT_MS : now - created > STAGING_MS;
      if (expired) {
        await this.discard(id);
        removed++;
      }
    }
    return removed;
  }
}
