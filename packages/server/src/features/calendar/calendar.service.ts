import type { FastifyBaseLogger } from 'fastify';
import { CALENDAR_RETURN, type CalendarReturn } from '@studybuddy/shared/calendar';
import type { GoogleExportInput, IcsExportInput } from '@studybuddy/shared/calendar';
import type { AppContext } from '../../platform/context.ts';
import { decryptSecret, DecryptError, encryptSecret } from '../../platform/crypto.ts';
import { notFound } from '../../platform/errors.ts';
import { feedIcs, getFeed, regenerateFeed, revokeFeed } from './feed.service.ts';
import { GoogleApiError, GoogleAuthError } from './google-client.ts';
import {
  calendarStatus,
  disconnectGoogle,
  exportToGoogle,
  finishAuthorization,
  googleCalendars,
  googleConfig,
  startAuthorization,
} from './google-calendar.service.ts';
import { exportIcs } from './ics-export.service.ts';

const STATE_CONTEXT = 'google-calendar-state';
/** How long the browser has to come back from Google's consent page. */
export const STATE_MS = 10 * 60 * 1000;
/** The OAuth state, its user and its expiry (ms). */
interface PendingState {
  s: string;
  u: string;
  e: number;
}

/** Google's answer to the callback, read as it comes. */
export interface GoogleAnswer {
  state: unknown;
  code: unknown;
  error: unknown;
}

export type CalendarService = ReturnType<typeof createCalendarService>;

/**
 * Calendar export (built in calendar.feature.ts): Google Calendar (OAuth on the server, tokens never leave it, the
 * pending state sealed in a cookie), the .ics download and the subscription feed.
 */
export function createCalendarService(deps: { ctx: AppContext }) {
  const { ctx } = deps;
  // The state cookie is encrypted and authenticated (AES-GCM): it cannot be read or forged in the browser.
  const sealState = (v: PendingState) => encryptSecret(ctx.config.secretKey, JSON.stringify(v), STATE_CONTEXT);
  const unsealState = (box: string): PendingState | null => {
    try {
      const v = JSON.parse(decryptSecret(ctx.config.secretKey, box, STATE_CONTEXT)) as PendingState;
      return v.e > Date.now() ? v : null;
    } catch (err) {
      if (err instanceof DecryptError || err instanceof SyntaxError) return null;
      throw err;
    }
  };

  return {
    status: (userId: string) => calendarStatus(ctx, userId),

    /** Google's consent page, and the sealed state the browser keeps in a cookie until it comes back. */
    async authorize(userId: string): Promise<{ url: string; sealedState: string }> {
      const { url, state } = await startAuthorization(ctx, userId);
      return { url, sealedState: sealState({ s: state, u: userId, e: Date.now() + STATE_MS }) };
    },

    /**
     * Google's answer after consent for the signed-in student: the outcome the coursework page shows. A state that
     * is missing, expired, another student's or not the one sent fails; a refusal is "denied".
     */
    async finishAuthorization(
      userId: string,
      sealed: string | undefined,
      answer: GoogleAnswer,
      log: FastifyBaseLogger,
    ): Promise<CalendarReturn> {
      const expected = sealed ? unsealState(sealed) : null;
      const { state, code, error } = answer;
      if (!expected || expected.u !== userId || typeof state !== 'string' || state !== expected.s) {
        return CALENDAR_RETURN.failed;
      }
      if (error || typeof code !== 'string' || !code) return CALENDAR_RETURN.denied;
      try {
        await finishAuthorization(ctx, userId, code);
      } catch (err) {
        if (!(err instanceof GoogleApiError || err instanceof GoogleAuthError)) throw err;
        log.warn({ status: err instanceof GoogleApiError ? err.status : 400 }, 'Google code exchange failed');
        return CALENDAR_RETURN.failed;
      }
      return CALENDAR_RETURN.connected;
    },

    /** Throws 404 when Google Calendar is not configured. */
    requireGoogle: (): void => void googleConfig(ctx),
    disconnect: (userId: string) => disconnectGoogle(ctx, userId),
    calendars: (userId: string) => googleCalendars(ctx, userId),
    exportToGoogle: (userId: string, input: GoogleExportInput) => exportToGoogle(ctx, userId, input),
    exportIcs: (userId: string, input: IcsExportInput) => exportIcs(ctx, userId, input),
    feed: (userId: string) => getFeed(ctx, userId),
    regenerateFeed: (userId: string) => regenerateFeed(ctx, userId),
    revokeFeed: (userId: string) => revokeFeed(ctx, userId),

    /** The feed file `<secret>.ics` calendar apps poll; 404 for anything else. */
    async feedFile(file: string): Promise<string> {
      const match = /^(.+)\.ics$/.exec(file);
      if (!match) throw notFound();
      return feedIcs(ctx, match[1]!);
    },
  };
}
