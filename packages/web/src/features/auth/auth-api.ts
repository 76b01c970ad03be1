import { useQuery } from '@tanstack/react-query';
import type { AuthProviders, LoginResult, ResendResult, ResetCheckResult } from '@studybuddy/shared/auth';
import { PUBLIC_MSG as MSG } from '@studybuddy/shared/messages/public';
import { api, ApiRequestError } from '../../lib/api.ts';

/** The accounts API of the server (features/auth on the server). */
export const authApi = {
  signup: (email: string, password: string) => api<{ ok: true }>('/api/auth/signup', { body: { email, password } }),
  login: (email: string, password: string) => api<LoginResult>('/api/auth/login', { body: { email, password } }),
  resend: (ticket: string) => api<ResendResult>('/api/auth/resend-verification', { body: { ticket } }),
  verifyEmail: (oobCode: string) => api<{ ok: true }>('/api/auth/verify-email', { body: { oobCode } }),
  requestReset: (email: string) => api<{ message: string }>('/api/auth/password-reset', { body: { email } }),
  checkReset: (oobCode: string) => api<ResetCheckResult>('/api/auth/password-reset/check', { body: { oobCode } }),
  confirmReset: (oobCode: string, password: string) =>
    api<{ ok: true }>('/api/auth/password-reset/confirm', { body: { oobCode, password } }),
  logout: () => api<{ ok: true }>('/api/auth/logout', { body: {} }),
};

/** Which social sign-in the server offers (the button is hidden when none). */
export function useProviders() {
  return useQuery({
    queryKey: ['auth-providers'],
    queryFn: () => api<AuthProviders>('/api/auth/providers'),
    staleTime: Infinity,
  });
}

/**
 * The text for a failed call: the server's own texts (the spec's, already prefixed where §8 wants it) as they
 * are; anything unexpected as 'Error:' plus the message (requirements §8 'other codes').
 */
export function errorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (message.startsWith(MSG.login.errorPrefix)) return message;
  const expected = err instanceof ApiRequestError && err.status >= 400 && err.status < 500;
  return expected ? message : `${MSG.login.errorPrefix} ${message}`;
}

/** Requirements §8 resend texts for a failed resend. */
export function resendErrorText(err: unknown): string {
  if (!(err instanceof ApiRequestError)) return MSG.resend.other;
  if (err.status === 0) return MSG.resend.network;
  if (err.status === 429) return MSG.resend.tooMany;
  const known: string[] = [MSG.resend.userNotFound, MSG.resend.invalidCredentials, MSG.resend.missingCredentials];
  return known.includes(err.message) ? err.message : MSG.resend.other;
}
