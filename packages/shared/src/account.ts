import { z } from 'zod';
import { PASSWORD_MAX, newPasswordSchema } from './auth.ts';
import { MSG } from './messages.ts';

/** Account controls beyond the spec: the password, the signed-in browsers and the data download. */
export const ACCOUNT_API = {
  password: '/api/account/password',
  sessions: '/api/account/sessions',
  session: '/api/account/sessions/:id',
  signOutOthers: '/api/account/sessions/sign-out-others',
  /** POST: takes the hour's one download and answers its link; GET on the link: the ZIP. */
  export: '/api/account/export',
  download: '/api/account/export/download',
} as const;

/** Changing the password while signed in: the current one, then a new one (the reset's rules). */
export const changePasswordSchema = z.object({
  currentPassword: z
    .string({ error: MSG.account.wrongCurrentPassword })
    .max(PASSWORD_MAX, MSG.account.wrongCurrentPassword),
  newPassword: newPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** The change-password form of the web app: the two entries of the new password must match. */
export const changePasswordFormSchema = z
  .object({ currentPassword: z.string(), newPassword: z.string(), confirm: z.string() })
  .refine((v) => v.newPassword === v.confirm, { message: MSG.reset.mismatch, path: ['confirm'] })
  .pipe(z.object({ currentPassword: z.string(), newPassword: newPasswordSchema, confirm: z.string() }));

/** One signed-in browser of the student (never the session's secret: `id` is a reference of its own). */
export const accountSessionSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;

export const accountSessionListSchema = z.object({ sessions: z.array(accountSessionSchema) });
export type AccountSessionList = z.infer<typeof accountSessionListSchema>;

export const sessionParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const signedOutOthersSchema = z.object({ ended: z.number().int().min(0) });
export type SignedOutOthers = z.infer<typeof signedOutOthersSchema>;

/** A short name for a User-Agent header: "Chrome on Linux", or '' when nothing is recognised. */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent;
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\//.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /(Chrome|Chromium|HeadlessChrome)\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : '';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';
  if (browser && os) return `${browser} on ${os}`;
  return browser || os;
}

/** The answer to a data download request: where the ZIP is (a link for this browser, used once, within minutes). */
export const exportRequestedSchema = z.object({ url: z.string() });
export type ExportRequested = z.infer<typeof exportRequestedSchema>;

export const exportTicketQuerySchema = z.object({ ticket: z.string().min(1).max(1000) });
