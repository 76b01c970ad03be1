import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { UploadedFile } from '@studybuddy/shared/files';
import type { Db } from '../../db/connect.ts';
import { resumableUploads } from '../../db/schema/files.ts';
import { withTransaction } from '../../db/transaction.ts';
import { lockStorageOf } from './stored-files.repository.ts';

/**
 * The resumable_uploads rows: what every instance knows of a tus upload. Times are the database's (`now()`),
 * so instances whose clocks differ still agree on leases and expiry.
 */

export type ResumableUpload = typeof resumableUploads.$inferSelect;

const ms = (n: number) => sql`${n} * interval '1 millisecond'`;

export async function findUpload(db: Db, id: string): Promise<ResumableUpload | undefined> {
  const [row] = await db.select().from(resumableUploads).where(eq(resumableUploads.id, id));
  return row;
}

/**
 * Records a new upload once `admit` agrees, atomically for its owner: concurrent creations of one student (on any
 * instance) take turns on their storage lock, so the quotas `admit` checks always see each other's uploads.
 */
export async function insertUpload(
  db: Db,
  row: { id: string; userId: string; size: number; metadata: Record<string, string | null> },
  admit: (tx: Db, open: { count: number; bytes: number }) => Promise<void>,
  openForMs: number,
): Promise<void> {
  await withTransaction(db, async (tx) => {
    await lockStorageOf(tx, row.userId);
    const [open] = await tx
      .select({ count: sql<string>`count(*)`, bytes: sql<string>`coalesce(sum(${resumableUploads.size}), 0)` })
      .from(resumableUploads)
      .where(
        and(
          eq(resumableUploads.userId, row.userId),
          inArray(resumableUploads.state, ['open', 'storing']),
          sql`${resumableUploads.createdAt} > now() - ${ms(openForMs)}`,
        ),
      );
    await admit(tx, { count: Number(open?.count ?? 0), bytes: Number(open?.bytes ?? 0) });
    await tx.insert(resumableUploads).values(row);
  });
}

export async function deleteUpload(db: Db, id: string): Promise<void> {
  await db.delete(resumableUploads).where(eq(resumableUploads.id, id));
}

export async function uploadIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ id: resumableUploads.id })
    .from(resumableUploads)
    .where(eq(resumableUploads.userId, userId));
  return rows.map((r) => r.id);
}

// ── the lock of one upload (a lease held by one request at a time) ──

/** Takes the lock when it is free or its lease ran out; 'taken' when another request holds it. */
export async function takeLock(
  db: Db,
  id: string,
  token: string,
  leaseMs: number,
): Promise<'locked' | 'taken' | 'missing'> {
  const rows = await db
    .update(resumableUploads)
    .set({ lockToken: token, lockedUntil: sql`now() + ${ms(leaseMs)}`, releaseRequested: false })
    .where(
      and(
        eq(resumableUploads.id, id),
        or(isNull(resumableUploads.lockToken), lt(resumableUploads.lockedUntil, sql`now()`)),
      ),
    )
    .returning({ id: resumableUploads.id });
  if (rows.length) return 'locked';
  return (await findUpload(db, id)) ? 'taken' : 'missing';
}

/** Asks the holder of the lock to let go (it looks at each renewal). */
export async function requestRelease(db: Db, id: string): Promise<void> {
  await db
    .update(resumableUploads)
    .set({ releaseRequested: true })
    .where(and(eq(resumableUploads.id, id), sql`${resumableUploads.lockToken} is not null`));
}

/** Extends the lease: whether it is still held, and whether another request asked for it. */
export async function renewLock(
  db: Db,
  id: string,
  token: string,
  leaseMs: number,
): Promise<{ held: boolean; releaseRequested: boolean }> {
  const [row] = await db
    .update(resumableUploads)
    .set({ lockedUntil: sql`now() + ${ms(leaseMs)}` })
    .where(and(eq(resumableUploads.id, id), eq(resumableUploads.lockToken, token)))
    .returning({ releaseRequested: resumableUploads.releaseRequested });
  return { held: !!row, releaseRequested: row?.releaseRequested ?? false };
}

export async function dropLock(db: Db, id: string, token: string): Promise<void> {
  await db
    .update(resumableUploads)
    .set({ lockToken: null, lockedUntil: null, releaseRequested: false })
    .where(and(eq(resumableUploads.id, id), eq(resumableUploads.lockToken, token)));
}

// ── completion (storing the complete file happens once, on one instance) ──

/** Claims the storing of a complete upload: true for exactly one caller (or for a taker-over after its lease). */
export async function claimStoring(db: Db, id: string, leaseMs: number): Promise<boolean> {
  const rows = await db
    .update(resumableUploads)
    .set({ state: 'storing', storingUntil: sql`now() + ${ms(leaseMs)}` })
    .where(
      and(
        eq(resumableUploads.id, id),
        or(
          eq(resumableUploads.state, 'open'),
          and(eq(resumableUploads.state, 'storing'), lt(resumableUploads.storingUntil, sql`now()`)),
        ),
      ),
    )
    .returning({ id: resumableUploads.id });
  return rows.length > 0;
}

export async function renewStoring(db: Db, id: string, leaseMs: number): Promise<void> {
  await db
    .update(resumableUploads)
    .set({ storingUntil: sql`now() + ${ms(leaseMs)}` })
    .where(and(eq(resumableUploads.id, id), eq(resumableUploads.state, 'storing')));
}

/** Gives a claim back (storing failed for a reason a retry may not meet again). */
export async function releaseStoring(db: Db, id: string): Promise<void> {
  await db
    .update(resumableUploads)
    .set({ state: 'open', storingUntil: null })
    .where(and(eq(resumableUploads.id, id), eq(resumableUploads.state, 'storing')));
}

export async function markStored(db: Db, id: string, result: UploadedFile): Promise<void> {
  await db
    .update(resumableUploads)
    .set({ state: 'stored', result, storingUntil: null, finishedAt: sql`now()` })
    .where(eq(resumableUploads.id, id));
}

/**
 * Rows to clean up: unfinished uploads past their expiry (unless an instance is storing one right now) and stored
 * ones whose result was kept long enough. Deleted here, so that of several sweeping instances one handles each.
 */
export async function takeExpired(
  db: Db,
  opts: { openForMs: number; resultForMs: number; limit: number },
): Promise<string[]> {
  const rows = await db.execute(sql`
    delete from ${resumableUploads} where ${resumableUploads.id} in (
      select ${resumableUploads.id} from ${resumableUploads}
      where (${resumableUploads.state} = 'open' and ${resumableUploads.createdAt} < now() - ${ms(opts.openForMs)})
         or (${resumableUploads.state} = 'storing' and ${resumableUploads.createdAt} < now() - ${ms(opts.openForMs)}
             and ${resumableUploads.storingUntil} < now())
         or (${resumableUploads.state} = 'stored' and ${resumableUploads.finishedAt} < now() - ${ms(opts.resultForMs)})
      limit ${opts.limit}
      for update skip locked
    )
    returning ${resumableUploads.id} as id`);
  return (rows as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
}
