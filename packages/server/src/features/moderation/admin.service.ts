import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import {
  MODERATION_LIMITS,
  type AdminActionInput,
  type AdminActionResult,
  type AdminPerson,
  type AdminReport,
  type AuditAction,
  type AuditLog,
  type FeedbackInbox,
  type ReportQueue,
  type ReportStatus,
  type StudentSearch,
} from '@studybuddy/shared/moderation';
import { previewOf } from '@studybuddy/shared/chat';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors.ts';
import { accountDirectory } from '../auth/account-directory.service.ts';
import { disableAccount, enableAccount } from '../auth/account-disable.service.ts';
import { deleteMessageAsModerator, existingMessageIds } from '../chat/messages.service.ts';
import { feedbackInbox } from '../feedback/feedback.service.ts';
import { removeFromGroup } from '../groups/groups.service.ts';
import { profiles } from '../profile/profiles.service.ts';
import { adminsAmong, audit, toAuditEntry, type Actor } from './admins.service.ts';
import * as repo from './moderation.repository.ts';

/**
 * The admin area (issue 24 point 3): the report queue, the feedback inbox, a student search, and the actions
 * (disable / enable an account, delete a message, remove a student from a group, resolve a report). Each action
 * writes one audit entry; one that names a report resolves it with what was done.
 */

/** Students by id as the admin lists show them (accounts deleted since are missing). */
async function people(ctx: AppContext, ids: (string | null)[]): Promise<Map<string, AdminPerson>> {
  const wanted = [...new Set(ids.filter((id): id is string => !!id))];
  const [accounts, cards] = await Promise.all([accountDirectory.byIds(ctx.db, wanted), profiles.cards(ctx.db, wanted)]);
  const found = new Map<string, AdminPerson>();
  for (const [id, account] of accounts) {
    found.set(id, { id, email: account.email, name: cards.get(id)?.name.trim() ?? '', disabled: account.disabled });
  }
  return found;
}

function toAdminReport(row: repo.ReportRow, persons: Map<string, AdminPerson>, existing: Set<string>): AdminReport {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    details: row.details,
    createdAt: row.createdAt.toISOString(),
    targetKind: row.targetKind,
    targetId: row.targetId,
    reporter: (row.reporterId && persons.get(row.reporterId)) || null,
    reported: (row.reportedUserId && persons.get(row.reportedUserId)) || null,
    snapshot: row.snapshot,
    messageExists: row.targetKind === 'message' && existing.has(row.targetId),
    resolution:
      row.status === 'resolved' && row.resolvedAt
        ? { at: row.resolvedAt.toISOString(), by: row.resolvedBy ?? '', note: row.resolution ?? '' }
        : null,
  };
}

const ACTION_LABEL: Record<AuditAction, string> = MSG.admin.audit.actions;

export function createAdminService(ctx: AppContext) {
  /** The report an action names must exist (404 otherwise), before anything is done. */
  async function reportNamed(reportId: string | undefined): Promise<repo.ReportRow | null> {
    if (!reportId) return null;
    const report = await repo.findReport(ctx.db, reportId);
    if (!report) throw notFound();
    return report;
  }

  /** The audit entry of a done action and, when it names an open report, that report resolved with it. */
  async function record(
    actor: Actor,
    action: AuditAction,
    target: { kind: repo.NewAuditRow['targetKind']; id: string; label: string },
    input: AdminActionInput,
  ): Promise<AdminActionResult> {
    const entry = await withTransaction(ctx.db, async (tx) => {
      if (input.reportId) {
        await repo.resolveReport(tx, input.reportId, actor.email, `${ACTION_LABEL[action]}: ${input.reason}`);
      }
      return audit(tx, actor, {
        action,
        targetKind: target.kind,
        targetId: target.id,
        targetLabel: target.label,
        reason: input.reason,
        reportId: input.reportId ?? null,
      });
    });
    return { entry };
  }

  return {
    async reports(status: ReportStatus): Promise<ReportQueue> {
      const rows = await repo.listReports(ctx.db, status, MODERATION_LIMITS.listMax);
      const persons = await people(
        ctx,
        rows.flatMap((r) => [r.reporterId, r.reportedUserId]),
      );
      const existing = await existingMessageIds(
        ctx,
        rows.filter((r) => r.targetKind === 'message').map((r) => r.targetId),
      );
      return { reports: rows.map((r) => toAdminReport(r, persons, existing)) };
    },

    async feedback(): Promise<FeedbackInbox> {
      const rows = await feedbackInbox(ctx.db, MODERATION_LIMITS.listMax);
      const persons = await people(
        ctx,
        rows.map((r) => r.userId),
      );
      return {
        feedback: rows.map((r) => ({
          id: r.id,
          feedback: r.feedback,
          rating: r.rating,
          createdAt: r.createdAt.toISOString(),
          from: (r.userId && persons.get(r.userId)) || null,
        })),
      };
    },

    /** Students whose e-mail or name contains the query (any college), by e-mail. */
    async searchStudents(q: string): Promise<StudentSearch> {
      const limit = 50;
      const [byEmail, byName] = await Promise.all([
        accountDirectory.searchEmail(ctx.db, q, limit),
        profiles.moderation.idsByName(ctx.db, q, limit),
      ]);
      const ids = [...new Set([...byEmail.map((a) => a.id), ...byName])];
      const [accounts, listings] = await Promise.all([
        accountDirectory.byIds(ctx.db, ids),
        profiles.moderation.listings(ctx.db, ids),
      ]);
      const listingOf = new Map(listings.map((l) => [l.id, l]));
      const admins = await adminsAmong(ctx, [...accounts.values()]);
      const students = [...accounts.values()]
        .sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0))
        .slice(0, limit)
        .map((a) => ({
          id: a.id,
          email: a.email,
          name: listingOf.get(a.id)?.name.trim() ?? '',
          college: listingOf.get(a.id)?.college ?? '',
          disabled: a.disabled,
          admin: admins.has(a.id),
          createdAt: a.createdAt.toISOString(),
        }));
      return { students };
    },

    async auditLog(): Promise<AuditLog> {
      return { entries: (await repo.listAudit(ctx.db, MODERATION_LIMITS.listMax)).map(toAuditEntry) };
    },

    async resolveReport(actor: Actor, reportId: string, input: AdminActionInput): Promise<AdminActionResult> {
      const report = await repo.findReport(ctx.db, reportId);
      if (!report) throw notFound();
      if (report.status !== 'open') throw new AppError(409, 'conflict', MSG.admin.alreadyResolved);
      const label = `${MSG.report.reasons[report.reason]} (${report.targetKind})`;
      return record(actor, 'resolveReport', { kind: 'report', id: report.id, label }, { ...input, reportId });
    },

    async setDisabled(
      actor: Actor,
      userId: string,
      disabled: boolean,
      input: AdminActionInput,
    ): Promise<AdminActionResult> {
      if (disabled && userId === actor.id) throw badRequest(MSG.admin.notYourself);
      await reportNamed(input.reportId);
      const account = (await accountDirectory.byIds(ctx.db, [userId])).get(userId);
      if (!account) throw notFound();
      const done = disabled ? await disableAccount(ctx, userId) : await enableAccount(ctx, userId);
      if (!done) throw notFound();
      const action = disabled ? 'disableAccount' : 'enableAccount';
      return record(actor, action, { kind: 'student', id: userId, label: account.email }, input);
    },

    async deleteMessage(actor: Actor, messageId: string, input: AdminActionInput): Promise<AdminActionResult> {
      await reportNamed(input.reportId);
      const deleted = await deleteMessageAsModerator(ctx, messageId);
      if (!deleted) throw notFound();
      const from = deleted.senderId ? (await people(ctx, [deleted.senderId])).get(deleted.senderId) : undefined;
      const label = `${from?.email ?? deleted.senderName}: ${previewOf(deleted.type, deleted.content)}`;
      return record(actor, 'deleteMessage', { kind: 'message', id: messageId, label: label.slice(0, 200) }, input);
    },

    async removeFromGroup(
      actor: Actor,
      groupId: string,
      userId: string,
      input: AdminActionInput,
    ): Promise<AdminActionResult> {
      await reportNamed(input.reportId);
      const account = (await accountDirectory.byIds(ctx.db, [userId])).get(userId);
      if (!account) throw notFound();
      const group = await removeFromGroup(ctx, groupId, userId);
      const label = MSG.admin.removedFrom(account.email, group.name);
      return record(actor, 'removeFromGroup', { kind: 'group', id: groupId, label }, input);
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
