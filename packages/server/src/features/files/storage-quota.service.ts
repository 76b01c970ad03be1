import { formatFileSize } from '@studybuddy/shared/documents';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AppError } from '../../platform/errors.ts';
import { quotaExceeded } from '../../platform/quota.ts';
import {
  forgetFolder,
  forgetStoredFile,
  heldSize,
  lockStorageOf,
  recordStoredFile,
  storageUsed,
} from './stored-files.repository.ts';

export { forgetStoredFile, storageUsed };

/** Stops counting the files under a folder that was deleted whole (a conversation's), whoever sent them. */
export const forgetStoredFolder = (db: Db, folder: string): Promise<void> => forgetFolder(db, folder);

/**
 * The storage quota (QUOTA_STORAGE_MB): every stored file of a student — course documents, chat images and
 * voice messages, profile images — is recorded with its size in stored_files, and a new file is accepted only
 * while the sum stays within the limit.
 */

export const storageFull = (limitBytes: number): AppError =>
  quotaExceeded({ what: MSG.quota.storage, when: MSG.quota.freeSpace }, formatFileSize(limitBytes));

/** Refuses early (before any byte is read or written) when `incoming` more bytes would not fit. */
export async function assertStorageRoom(
  ctx: AppContext,
  userId: string,
  incoming: number,
  db: Db = ctx.db,
): Promise<void> {
  const limit = ctx.config.limits.storageBytes;
  if (incoming > limit || (await storageUsed(db, userId)) + incoming > limit) throw storageFull(limit);
}

/**
 * Counts `size` bytes at `path` against the student's storage, atomically (concurrent uploads of one student
 * take turns on their storage lock), then runs `write`. A refused file is never written; a failed write is uncounted.
 * A path the student already holds (content-addressed re-upload) costs nothing more.
 */
export async function storeWithinQuota<T>(
  ctx: AppContext,
  userId: string,
  path: string,
  size: number,
  write: () => Promise<T>,
): Promise<T> {
  const limit = ctx.config.limits.storageBytes;
  const added = await withTransaction(ctx.db, async (db) => {
    await lockStorageOf(db, userId);
    const held = await heldSize(db, userId, path);
    if (held !== undefined && held >= size) return false;
    const used = (await storageUsed(db, userId)) - (held ?? 0);
    if (used + size > limit) throw storageFull(limit);
    await recordStoredFile(db, userId, path, size);
    return held === undefined;
  });
  try {
    return await write();
  } catch (err) {
    if (added) await forgetStoredFile(ctx.db, userId, path).catch(() => undefined);
    throw err;
  }
}
