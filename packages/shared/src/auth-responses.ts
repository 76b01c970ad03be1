import { z } from 'zod';

/** What the accounts API answers (response schemas; the web's types are inferred from them). */

/**
 * A successful password check: either signed in, or (unverified e-mail) no session but a short-lived
 * signed ticket that lets this browser ask for a new verification mail without keeping the password.
 */
export const loginResultSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('signedIn') }),
  z.object({ status: z.literal('unverified'), resendTicket: z.string() }),
]);
export type LoginResult = z.infer<typeof loginResultSchema>;

export const resendResultSchema = z.union([
  z.object({ sent: z.literal(true) }),
  z.object({ sent: z.literal(false), alreadyVerified: z.literal(true) }),
]);
export type ResendResult = z.infer<typeof resendResultSchema>;

export const resetCheckResultSchema = z.object({ email: z.string() });
export type ResetCheckResult = z.infer<typeof resetCheckResultSchema>;

export const resetRequestedSchema = z.object({ message: z.string() });

export const authProvidersSchema = z.object({
  /** Social sign-in through OpenID Connect, when configured; `name` goes on the button. */
  oidc: z.object({ name: z.string() }).nullable(),
});
export type AuthProviders = z.infer<typeof authProvidersSchema>;
