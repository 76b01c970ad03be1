import type { FastifyReply } from 'fastify';
import type { LoginInput, LoginResult, ResendResult, SignupInput } from '@studybuddy/shared/auth';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { universityForEmail } from '@studybuddy/shared/universities';
import type { Db } from '../../db/connect.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import {
  consumeCode,
  deleteCodes,
  deleteUser,
  findUserByEmail,
  findUserById,
  insertUser,
  isUniqueViolation,
  issueCode,
  peekCode,
  updateUser,
} from './accounts.repository.ts';
import { resetMail, verificationMail } from './auth-mail.ts';
import { knownDevices } from './known-device.ts';
import type { LoginGuard } from './login-guard.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { RateLimiter } from './rate-limit.ts';
import { resetRefusal, unusableResetCode } from './reset-refusals.ts';
import { seal, unseal } from './sealed-value.ts';
import { endUserSessions } from './sessions.service.ts';
import { withTransaction } from '../../db/transaction.ts';
import { profiles } from '../profile/profiles.service.ts';

/**
 * Who is asking: the client IP (rate limits), the reply (Retry-After, cookies), the browser's current session
 * and its known-device cookie.
 */
export interface Caller {
  ip: string;
  reply: FastifyReply;
  sessionId?: string;
  deviceCookie?: string;
}

const RESEND_TICKET = 'resend-ticket';
const RESEND_TICKET_MS = 30 * 60 * 1000;

const fail = (status: number, code: string, message: string, field?: string) =>
  new AppError(status, code, message, field);

/** The account a reset code is for; refused when it is gone or disabled. */
async function resetAccount(db: Db, userId: string) {
  const user = await findUserById(db, userId);
  if (!user) throw resetRefusal.userNotFound();
  if (user.disabled) throw resetRefusal.accountDisabled();
  return user;
}

export function createAccountService(ctx: AppContext, limiter: RateLimiter, guard: LoginGuard, hasher: PasswordHasher) {
  const db: Db = ctx.db;
  const { publicUrl, secretKey } = ctx.config;
  const devices = knownDevices(secretKey, publicUrl.startsWith('https:'));

  async function sendVerification(userId: string, email: string): Promise<void> {
    const code = await issueCode(db, userId, 'verifyEmail', LIMITS.verificationCodeMs);
    await ctx.mailer.send(verificationMail(publicUrl, email, code));
  }

  return {
    /** Creates an unverified account and mails its verification link; no session is made. */
    async signup(input: SignupInput, caller: Caller): Promise<void> {
      // Only a university of the setting that takes sign-ups (not one marked "signUp": false, nor one removed).
      if (!universityForEmail(ctx.config.universities, input.email)?.signUp) {
        throw fail(400, 'invalid_domain', MSG.signup.invalidDomain, 'email');
      }
      await limiter.hit(caller.reply, 'signup', caller.ip, input.email);
      const emailInUse = fail(409, 'email_in_use', MSG.signup.emailInUse, 'email');
      if (await findUserByEmail(db, input.email)) throw emailInUse;
      const passwordHash = await hasher.hash(input.password);
      let userId: string;
      try {
        userId = await insertUser(db, { email: input.email, passwordHash, emailVerified: false });
      } catch (err) {
        if (isUniqueViolation(err)) throw emailInUse;
        throw err;
      }
      try {
        await sendVerification(userId, input.email);
      } catch (err) {
        // Without its mail the account could never be verified: take it back so the user can simply retry.
        ctx.log.error({ err, to: input.email }, 'verification mail failed');
        await deleteUser(db, userId);
        throw fail(503, 'mail_failed', MSG.signup.mailFailed);
      }
    },

    /**
     * Checks e-mail and password with the distinct texts of requirements §8. An unverified account gets no session,
     * only a resend ticket: a signed, 30-minute value naming the account, proof that this browser knew the
     * password a moment ago. The browser keeps it in memory to offer Resend Verification Email, so the
     * password itself is never stored (the first version's client kept it in the browser).
     * Guessing is slowed per account, per IP and per known device (login-guard.ts); a right password marks the
     * browser a known device of the account.
     */
    async login(input: LoginInput, caller: Caller): Promise<{ result: LoginResult; userId?: string }> {
      const user = await findUserByEmail(db, input.email);
      const deviceId = user ? devices.recognise(caller.deviceCookie, user) : null;
      const attempt = await guard.begin(caller.reply, { ip: caller.ip, email: input.email, deviceId });
      const failed = async (error: AppError) => {
        await attempt.failed();
        return error;
      };
      if (!user) throw await failed(fail(401, 'user_not_found', MSG.login.userNotFound, 'email'));
      // Accounts made through social sign-in have no password until they reset one.
      if (!user.passwordHash) throw await failed(fail(401, 'invalid_credential', MSG.login.invalidCredential));
      if (!(await hasher.verify(input.password, user.passwordHash))) {
        throw await failed(fail(401, 'wrong_password', MSG.login.wrongPassword, 'password'));
      }
      await attempt.succeeded();
      if (user.disabled) throw fail(403, 'account_disabled', MSG.reset.accountDisabled);
      devices.remember(caller.reply, caller.deviceCookie, user);
      if (!user.emailVerified) {
        const resendTicket = seal(secretKey, RESEND_TICKET, { userId: user.id }, RESEND_TICKET_MS);
        return { result: { status: 'unverified', resendTicket } };
      }
      // A university taken out of the setting keeps its students; one who never got a profile has no college.
      if (!(await profiles.ensure(db, user.id, user.email, ctx.config.universities))) {
        throw fail(403, 'invalid_domain', MSG.signup.invalidDomain, 'email');
      }
      return { result: { status: 'signedIn' }, userId: user.id };
    },

    /** A new verification link for the account named by a resend ticket (the newest link replaces older ones). */
    async resend(ticket: string, caller: Caller): Promise<ResendResult> {
      const data = unseal<{ userId: string }>(secretKey, RESEND_TICKET, ticket);
      if (!data) throw fail(401, 'invalid_credentials', MSG.resend.invalidCredentials);
      const user = await findUserById(db, data.userId);
      if (!user) throw fail(404, 'user_not_found', MSG.resend.userNotFound);
      await limiter.hit(caller.reply, 'resend', caller.ip, user.email);
      if (user.emailVerified) return { sent: false, alreadyVerified: true };
      try {
        await sendVerification(user.id, user.email);
      } catch (err) {
        ctx.log.error({ err, to: user.email }, 'verification mail failed');
        throw fail(502, 'mail_failed', MSG.resend.other);
      }
      return { sent: true };
    },

    /** Uses a verification code: the account becomes verified; every other verification link stops working. */
    async verifyEmail(code: string): Promise<void> {
      const verified = await withTransaction(db, async (tx) => {
        const userId = await consumeCode(tx, code, 'verifyEmail');
        if (!userId) return false;
        await updateUser(tx, userId, { emailVerified: true });
        await deleteCodes(tx, userId, 'verifyEmail');
        return true;
      });
      if (!verified) throw fail(400, 'invalid_code', MSG.verify.invalidOrExpired);
    },

    /** Mails a reset link when the account exists; the answer never tells whether it does. */
    async requestReset(email: string, caller: Caller): Promise<void> {
      await limiter.hit(caller.reply, 'reset', caller.ip, email);
      const user = await findUserByEmail(db, email);
      if (!user || user.disabled) return;
      try {
        const code = await issueCode(db, user.id, 'resetPassword', LIMITS.resetCodeMs);
        await ctx.mailer.send(resetMail(publicUrl, user.email, code));
      } catch (err) {
        ctx.log.error({ err, to: user.email }, 'password reset mail failed');
      }
    },

    /** The e-mail a reset code is for, while it is unused and unexpired. */
    async checkReset(code: string): Promise<{ email: string }> {
      const userId = await peekCode(db, code, 'resetPassword');
      if (!userId) throw await unusableResetCode(db, code);
      return { email: (await resetAccount(db, userId)).email };
    },

    /**
     * Sets the new password with a single-use code, ends the user's other sessions and closes every socket of
     * theirs. The mailed link proved the mailbox, so the e-mail counts as verified from now on. Counted per IP,
     * and the code is checked before the (costly) hash: a wrong code never reaches scrypt. It is used up in the
     * transaction, so of two confirmations with one code only one sets a password.
     */
    async confirmReset(code: string, password: string, caller: Caller): Promise<void> {
      await limiter.hit(caller.reply, 'resetConfirm', caller.ip);
      const owner = await peekCode(db, code, 'resetPassword');
      if (!owner) throw await unusableResetCode(db, code);
      await resetAccount(db, owner);
      const passwordHash = await hasher.hash(password);
      const resetUserId = await withTransaction(db, async (t) => {
        const userId = await consumeCode(t, code, 'resetPassword');
        if (!userId) throw await unusableResetCode(t, code);
        const user = await resetAccount(t, userId);
        await updateUser(t, user.id, { passwordHash, emailVerified: true });
        await deleteCodes(t, user.id, 'resetPassword');
        await endUserSessions(ctx, t, user.id, caller.sessionId);
        return user.id;
      });
      // Every socket of the student closes at once, on every instance (the kept session's tabs reconnect).
      ctx.realtime.disconnect([resetUserId]);
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
