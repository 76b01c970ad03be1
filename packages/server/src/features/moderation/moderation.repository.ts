import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { deleteIfPresent, insertIfAbsent } from '../../db/rows.ts';
import { adminGrants, moderationAudit, reports } from '../../db/schema/moderation.ts';

/** Reports, admin grants and the audit log: only this module touches the moderation tables. */

export type ReportRow = typeof reports.$inferSelect;
export type NewReport = typeof reports.$inferInsert;
export type AuditRow = typeof moderationAudit.$inferSelect;
export type NewAuditRow = typeof moderationAudit.$inferInsert;

/** Stores the report unless the reporter reported the same target already; true when it was stored. */
export async function insertReport(db: Db, row: NewReport): Promise<boolean> {
  const stored = await db.insert(reports).values(row).onConflictDoNothing().returning({ id: reports.id });
  return stored.length > 0;
}

export async function findReportOf(
  db: Db,
  reporterId: string,
  targetKind: ReportRow['targetKind'],
  targetId: string,
): Promise<ReportRow | undefined> {
  const [row] = await db
    .select()
    .from(reports)
    .where(and(eq(reports.reporterId, reporterId), eq(reports.targetKind, targetKind), eq(reports.targetId, targetId)))
    .limit(1);
  return row;
}

export async function findReport(db: Db, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select().from(reports).where(eq(reports.id, id)).limit(1);
  return row;
}

/** Open reports oldest first (a queue); resolved ones most recently resolved first. */
export async function listReports(db: Db, status: ReportRow['status'], limit: number): Promise<ReportRow[]> {
  return db
    .select()
    .from(reports)
    .where(eq(reports.status, status))
    .orderBy(status === 'open' ? asc(reports.createdAt) : desc(reports.resolvedAt), asc(reports.id))
    .limit(limit);
}

/** Marks an open report resolved; false when it is not open (or does not exist). */
export async function resolveReport(db: Db, id: string, by: string, note: string): Promise<boolean> {
  const done = await db
    .update(reports)
    .set({ status: 'resolved', resolvedAt: new Date(), resolvedBy: by, resolution: note })
    .where(and(eq(reports.id, id), eq(reports.status, 'open')))
    .returning({ id: reports.id });
  return done.length > 0;
}

/** The reports one student made, oldest first (their data download). */
export async function reportsBy(db: Db, reporterId: string) {
  return db
    .select({
      targetKind: reports.targetKind,
      reason: reports.reason,
      details: reports.details,
      snapshot: reports.snapshot,
      createdAt: reports.createdAt,
    })
    .from(reports)
    .where(eq(reports.reporterId, reporterId))
    .orderBy(asc(reports.createdAt), asc(reports.id));
}

export async function isGranted(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: adminGrants.userId })
    .from(adminGrants)
    .where(eq(adminGrants.userId, userId))
    .limit(1);
  return !!row;
}

/** Of `userIds`, those granted admin. */
export async function grantedAmong(db: Db, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const found = await db
    .select({ id: adminGrants.userId })
    .from(adminGrants)
    .where(inArray(adminGrants.userId, userIds));
  return new Set(found.map((r) => r.id));
}

/** True when the grant is new. */
export async function insertGrant(db: Db, userId: string): Promise<boolean> {
  return insertIfAbsent(db, adminGrants, { userId });
}

/** True when there was a grant to remove. */
export async function deleteGrant(db: Db, userId: string): Promise<boolean> {
  return deleteIfPresent(db, adminGrants, eq(adminGrants.userId, userId));
}

/** Appends an entry (the table refuses changes to it). */
export async function insertAudit(db: Db, row: NewAuditRow): Promise<AuditRow> {
  const [stored] = await db.insert(moderationAudit).values(row).returning();
  return stored!;
}

/** The newest entries first. */
export async function listAudit(db: Db, limit: number): Promise<AuditRow[]> {
  return db
    .select()
    .from(moderationAudit)
    .orderBy(desc(moderationAudit.createdAt), desc(moderationAudit.id))
    .limit(limit);
}
