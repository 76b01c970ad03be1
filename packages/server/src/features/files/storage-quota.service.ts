import { and, eq, sql } from 'drizzle-orm';
import { formatFileSize } from '@studybuddy/shared/documents';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { storedFiles, users } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import type { AppError } from '../../platform/errors.ts';
import { quotaExceeded } from '../../platform/quota.ts';
import { withTransaction } from '../../db/transaction.ts';

/**
 * The storage quota (QUOTA_STORAGE_MB): every stored file of a student — course documents, chat images and
 * voice messages, profile images — is recorded with its size in stored_files, and a new file is accepted only
 * while the sum stays within the limit.
 */

export const storageFull = (limitBytes: number): AppError =>
  quotaExceeded({ what: MSG.quota.storage, when: MSG.quota.freeSpace }, formatFileSize(limitBytes));

/** Bytes the student keeps in storage. */
export async function storageUsed(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${storedFiles.size}), 0)` })
    .from(storedFiles)
    .where(eq(storedFiles.userId, userId));
  return Number(row?.bytes ?? 0);
}

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
 * queue on their user row), then runs `write`. A refused file is never written; a failed write is uncounted.
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
    await db.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
    const [held] = await db
      .select({ size: storedFiles.size })
      .from(storedFiles)
      .where(and(eq(storedFiles.userId, userId), eq(storedFiles.path, path)));
    if (held && held.size >= size) return false;
    const used = (await storageUsed(db, userId)) - (held?.size ?? 0);
    if (used + size > limit) throw storageFull(limit);
    await db
      .insert(storedFiles)
      .values({ userId, path, size })
      .onConflictDoUpdate({ target: [storedFiles.userId, storedFiles.path], set: { size } });
    return !held;
  });
  try {
    return await write();
  } catch (err) {
    if (added) await forgetStoredFile(ctx.db, userId, path).catch(() => undefined);
    throw err;
  }
}

/** Stops counting a file the student no longer keeps. */
export async function forgetStoredFile(db: Db, userId: string, path: string): Promise<void> {
  await db.delete(storedFiles).where(and(eq(storedFiles.userId, userId), eq(storedFiles.path, path)));
}
