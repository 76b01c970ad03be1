import { and, eq, like, sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { storedFiles } from '../../db/schema/files.ts';

/** stored_files: every file a student keeps in storage, with its size (the storage quota sums them). */

/**
 * Holds the student's storage lock until the transaction ends: uploads of one student (on any instance) that
 * count against their quota take turns, so each sees the others' files and declared uploads.
 */
export async function lockStorageOf(tx: Db, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${'storage:' + userId}, 0))`);
}

/** Bytes the student keeps in storage. */
export async function storageUsed(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${storedFiles.size}), 0)` })
    .from(storedFiles)
    .where(eq(storedFiles.userId, userId));
  return Number(row?.bytes ?? 0);
}

/** The size the student holds at `path` (undefined when they hold nothing there). */
export async function heldSize(db: Db, userId: string, path: string): Promise<number | undefined> {
  const [held] = await db
    .select({ size: storedFiles.size })
    .from(storedFiles)
    .where(and(eq(storedFiles.userId, userId), eq(storedFiles.path, path)));
  return held?.size;
}

export async function recordStoredFile(db: Db, userId: string, path: string, size: number): Promise<void> {
  await db
    .insert(storedFiles)
    .values({ userId, path, size })
    .onConflictDoUpdate({ target: [storedFiles.userId, storedFiles.path], set: { size } });
}

/** Stops counting a file the student no longer keeps. */
export async function forgetStoredFile(db: Db, userId: string, path: string): Promise<void> {
  await db.delete(storedFiles).where(and(eq(storedFiles.userId, userId), eq(storedFiles.path, path)));
}

/** Stops counting a file whoever holds it (it was deleted from storage). */
export async function forgetPath(db: Db, path: string): Promise<void> {
  await db.delete(storedFiles).where(eq(storedFiles.path, path));
}

/** Every path the student keeps in storage, in any folder (profile images, chat files, course documents). */
export async function storedPathsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ path: storedFiles.path }).from(storedFiles).where(eq(storedFiles.userId, userId));
  return rows.map((r) => r.path);
}

/** Stops counting every file under a folder, whoever holds it (the folder was deleted). */
export async function forgetFolder(db: Db, folder: string): Promise<void> {
  const escaped = folder.replace(/[\\%_]/g, (c) => `\\${c}`);
  await db.delete(storedFiles).where(like(storedFiles.path, `${escaped}/%`));
}
