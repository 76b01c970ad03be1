import { index, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ReportSnapshot } from '@studybuddy/shared/moderation';
import { at, cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Reports of students and messages (issue 24 point 2). One per reporter and target; the snapshot is a copy of
 * what was reported, so deleting the messages (or the accounts) later leaves it as it was.
 */
export const reports = pgTable(
  'reports',
  {
    id: text('id').primaryKey(),
    reporterId: text('reporter_id').references(() => users.id, { onDelete: 'set null' }),
    targetKind: text('target_kind', { enum: ['student', 'message'] }).notNull(),
    /** The reported student's user id, or the reported message's id. */
    targetId: text('target_id').notNull(),
    reportedUserId: text('reported_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason', {
      enum: ['harassment', 'spam', 'impersonation', 'inappropriate', 'other'],
    }).notNull(),
    details: text('details').notNull().default(''),
    snapshot: jsonb('snapshot').$type<ReportSnapshot>().notNull(),
    status: text('status', { enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    resolvedAt: at('resolved_at'),
    /** The admin's e-mail as it was (the record outlives the account). */
    resolvedBy: text('resolved_by'),
    resolution: text('resolution'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('reports_reporter_target_idx').on(t.reporterId, t.targetKind, t.targetId),
    index('reports_status_created_idx').on(t.status, t.createdAt),
  ],
);

/** Admins granted with `npm run admin -- grant <email>` (the ADMINS setting names the others). */
export const adminGrants = pgTable('admin_grants', {
  userId: cascadeRef('user_id', () => users.id).primaryKey(),
  createdAt: createdAt(),
});

/**
 * Every admin action: who, what, on what, why, when. Append-only: the migration adds a trigger that refuses
 * UPDATE and DELETE, and no reference to `users` (whose deletion would change a row) is kept.
 */
export const moderationAudit = pgTable(
  'moderation_audit',
  {
    id: text('id').primaryKey(),
    /** The admin's user id; null for the operator's command line. */
    actorId: text('actor_id'),
    actor: text('actor').notNull(),
    action: text('action', {
      enum: [
        'disableAccount',
        'enableAccount',
        'deleteMessage',
        'removeFromGroup',
        'resolveReport',
        'grantAdmin',
        'revokeAdmin',
      ],
    }).notNull(),
    targetKind: text('target_kind', { enum: ['student', 'message', 'group', 'report'] }).notNull(),
    targetId: text('target_id').notNull(),
    targetLabel: text('target_label').notNull().default(''),
    reason: text('reason').notNull(),
    reportId: text('report_id'),
    createdAt: createdAt(),
  },
  (t) => [index('moderation_audit_created_idx').on(t.createdAt)],
);
