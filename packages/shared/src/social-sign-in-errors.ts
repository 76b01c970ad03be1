import { PUBLIC_MSG as MSG } from './messages/public.ts';

/**
 * Why a social sign-in was refused; /login?error=<code> shows the text. Kept apart from auth.ts's schemas so
 * the log-in page can read it without loading zod on first paint.
 */
export const SOCIAL_ERRORS = {
  invalid_domain: MSG.login.socialInvalidDomain,
  not_verified: MSG.login.socialNotVerified,
  disabled: MSG.reset.accountDisabled,
  failed: MSG.login.socialFailed,
} as const;
export type SocialError = keyof typeof SOCIAL_ERRORS;
