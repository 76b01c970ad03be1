import { resetCheckSchema, resetConfirmSchema } from '@studybuddy/shared/auth';
import { MSG } from '@studybuddy/shared/messages';
import type { Db } from '../../db/connect.ts';
import { AppError } from '../../platform/errors.ts';
import { refusedAs } from '../../platform/openapi.ts';
import { isExpiredCode } from './accounts.repository.ts';

const TEXTS = MSG.reset.refusals;

/** The refusals of a password reset, each shown as `{code}: {message}`, a code per case (requirements §8). */
export const resetRefusal = {
  expiredLink: () => new AppError(400, 'expired_link', TEXTS.expiredLink),
  invalidLink: () => new AppError(400, 'invalid_link', TEXTS.invalidLink),
  accountDisabled: () => new AppError(403, 'account_disabled', TEXTS.accountDisabled),
  /** The code is still there but its account is not: deleted between the two reads. */
  userNotFound: () => new AppError(404, 'user_not_found', TEXTS.userNotFound),
  weakPassword: () => new AppError(400, 'weak_password', TEXTS.weakPassword, 'password'),
};

/** Why a reset code that cannot be used is refused: it ran out, or it is not (or no longer) a code at all. */
export async function unusableResetCode(db: Db, code: string): Promise<AppError> {
  return (await isExpiredCode(db, code, 'resetPassword')) ? resetRefusal.expiredLink() : resetRefusal.invalidLink();
}

/** The check body; a missing or malformed code is an invalid link. */
export const resetCheckBody = refusedAs(resetCheckSchema, () => resetRefusal.invalidLink());

/** The confirm body; a malformed code is an invalid link, a too short password a weak one. */
export const resetConfirmBody = refusedAs(resetConfirmSchema, (issue) => {
  if (issue.path[0] === 'oobCode') return resetRefusal.invalidLink();
  if (issue.message === MSG.reset.tooShort) return resetRefusal.weakPassword();
  return undefined;
});
