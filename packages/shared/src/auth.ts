import { z } from 'zod';
import { LIMITS } from './limits.ts';
import { MSG } from './messages.ts';

/** Longest accepted password (scrypt takes any length; this keeps request bodies and hashing bounded). */
export const PASSWORD_MAX = 128;

/** A trimmed, lower-cased e-mail address; `message` is shown when it is missing or malformed. */
const emailField = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: message }).max(254, message));

const oobCode = (message: string) => z.string({ error: message }).trim().min(1, message).max(200, message);

/**
 * Sign-up: a valid e-mail and a password of at least 6 characters (requirements §5). Whether the e-mail's domain is a
 * supported university's is the server's setting (UNIVERSITIES_FILE), checked there.
 */
export const signupInputSchema = z.object({
  email: emailField(MSG.signup.invalidEmail),
  password: z
    .string({ error: MSG.signup.weakPassword })
    .min(LIMITS.passwordMin, MSG.signup.weakPassword)
    .max(PASSWORD_MAX, MSG.signup.passwordTooLong),
});
export type SignupInput = z.infer<typeof signupInputSchema>;

export const loginInputSchema = z.object({
  email: emailField(MSG.signup.invalidEmail),
  password: z
    .string({ error: MSG.login.invalidCredential })
    .min(1, MSG.login.invalidCredential)
    .max(PASSWORD_MAX, MSG.login.invalidCredential),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const resendInputSchema = z.object({
  ticket: z
    .string({ error: MSG.resend.missingCredentials })
    .min(1, MSG.resend.missingCredentials)
    .max(500, MSG.resend.invalidCredentials),
});

export const verifyEmailInputSchema = z.object({ oobCode: oobCode(MSG.verify.invalidOrExpired) });

export const resetRequestSchema = z.object({
  email: z
    .string({ error: MSG.reset.needEmail })
    .trim()
    .min(1, MSG.reset.needEmail)
    .pipe(emailField(MSG.signup.invalidEmail)),
});

export const resetCheckSchema = z.object({ oobCode: oobCode(MSG.reset.invalidCode) });

/** The new password of a reset (requirements §5): at least 6 characters. */
export const newPasswordSchema = z
  .string({ error: MSG.reset.tooShort })
  .min(LIMITS.passwordMin, MSG.reset.tooShort)
  .max(PASSWORD_MAX, MSG.signup.passwordTooLong);

export const resetConfirmSchema = z.object({ oobCode: oobCode(MSG.reset.invalidCode), password: newPasswordSchema });

/** The reset form of the web app: the two entries must match, then the rules of a new password. */
export const resetFormSchema = z
  .object({ password: z.string(), confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: MSG.reset.mismatch, path: ['confirm'] })
  .pipe(z.object({ password: newPasswordSchema, confirm: z.string() }));

export type { AuthProviders, LoginResult, ResendResult, ResetCheckResult } from './auth-responses.ts';

export { SOCIAL_ERRORS, type SocialError } from './social-sign-in-errors.ts';
