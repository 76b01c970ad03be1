import { randomUUID } from 'node:crypto';
import type { AuditAction, AuditEntry } from '@studybuddy/shared/moderation';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../platform/context.ts';
import type { SessionUser } from '../../platform/session.ts';
import { accountDirectory } from '../auth/account-directory.service.ts';
import * as repo from './moderation.repository.ts';

/**
 * Who is an admin: an account whose e-mail the ADMINS setting lists, or one granted with `npm run admin -- grant`.
 * Every admin action goes into the append-only audit log through `audit`.
 */

/** Whoever acts: a signed-in admin, or the operator's command line. */
export interface Actor {
  id: string | null;
  email: string;
}

export const OPERATOR: Actor = { id: null, email: MSG.admin.audit.operator };

export async function isAdmin(ctx: AppContext, user: Pick<SessionUser, 'id' | 'email'> | null): Promise<boolean> {
  if (!user) return false;
  if (ctx.config.admins.includes(user.email.toLowerCase())) return true;
  return repo.isGranted(ctx.db, user.id);
}

/** Of these accounts, the admins (ADMINS or granted). */
export async function adminsAmong(ctx: AppContext, accounts: { id: string; email: string }[]): Promise<Set<string>> {
  const granted = await repo.grantedAmong(
    ctx.db,
    accounts.map((a) => a.id),
  );
  const listed = accounts.filter((a) => ctx.config.admins.includes(a.email.toLowerCase())).map((a) => a.id);
  return new Set([...granted, ...listed]);
}

export function toAuditEntry(row: repo.AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actor: row.actor,
    action: row.action,
    targetKind: row.targetKind,
    targetId: row.targetId,
    targetLabel: row.targetLabel,
    reason: row.reason,
    reportId: row.reportId,
  };
}

/** Writes one audit entry (in the caller's transaction when given one). */
export async function audit(
  db: Db,
  actor: Actor,
  entry: {
    action: AuditAction;
    targetKind: repo.NewAuditRow['targetKind'];
    targetId: string;
    targetLabel: string;
    reason: string;
    reportId?: string | null;
  },
): Promise<AuditEntry> {
  const row = await repo.insertAudit(db, {
    id: randomUUID(),
    actorId: actor.id,
    actor: actor.email,
    action: entry.action,
    targetKind: entry.targetKind,
    targetId: entry.targetId,
    targetLabel: entry.targetLabel,
    reason: entry.reason,
    reportId: entry.reportId ?? null,
  });
  return toAuditEntry(row);
}

export type GrantOutcome =
  | { kind: 'noAccount' }
  | { kind: 'done'; changed: boolean; viaSetting: boolean; userId: string; email: string };

/**
 * `npm run admin -- grant|revoke <email>`: grants or withdraws admin from the account with that e-mail and writes it
 * in the audit log. `viaSetting`: the ADMINS setting names the account, so a revoke leaves it an admin.
 */
export async function changeGrant(
  ctx: Pick<AppContext, 'db' | 'config'>,
  action: 'grant' | 'revoke',
  email: string,
  actor: Actor = OPERATOR,
): Promise<GrantOutcome> {
  const account = await accountDirectory.byEmail(ctx.db, email);
  if (!account) return { kind: 'noAccount' };
  const changed = await withTransaction(ctx.db, async (tx) => {
    const did = action === 'grant' ? await repo.insertGrant(tx, account.id) : await repo.deleteGrant(tx, account.id);
    if (did) {
      await audit(tx, actor, {
        action: action === 'grant' ? 'grantAdmin' : 'revokeAdmin',
        targetKind: 'student',
        targetId: account.id,
        targetLabel: account.email,
        reason: action === 'grant' ? 'npm run admin -- grant' : 'npm run admin -- revoke',
      });
    }
    return did;
  });
  return {
    kind: 'done',
    changed,
    viaSetting: ctx.config.admins.includes(account.email.toLowerCase()),
    userId: account.id,
    email: account.email,
  };
}
