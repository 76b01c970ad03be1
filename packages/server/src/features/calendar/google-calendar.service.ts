import { randomBytes } from 'node:crypto';
import {
  calendarEventFor,
  type CalendarStatus,
  type ExportItemResult,
  type GoogleCalendarsResponse,
  type GoogleExportInput,
  type GoogleExportResponse,
} from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { decryptSecret, DecryptError, encryptSecret } from '../../platform/crypto.ts';
import { AppError } from '../../platform/errors.ts';
import { withTransaction } from '../../db/transaction.ts';
import { profiles } from '../profile/profiles.service.ts';
import { deleteGoogleTokens, findGoogleTokens, saveChosenCalendar, saveGoogleTokens } from './calendar.repository.ts';
import { itemsToExport } from './export-items.ts';
import {
  authorizationUrl,
  exchangeCode,
  GoogleApiError,
  GoogleAuthError,
  insertEvent,
  listCalendars,
  refreshAccessToken,
  revokeToken,
  type GoogleConfig,
  type GoogleTokens,
} from './google-client.ts';

/** A token this close to its expiry counts as expired (the export must not outlive it). */
const EXPIRY_MARGIN_MS = 60_000;
export const CALLBACK_PATH = '/api/calendar/google/callback';

const notConnected = () => new AppError(409, 'calendar_not_connected', MSG.calendar.notConnected);
const unreachable = () => new AppError(502, 'calendar_unavailable', MSG.calendar.unreachable);
const boxContext = (userId: string, kind: 'access' | 'refresh') => `google-calendar:${kind}:${userId}`;

export function googleConfig(ctx: AppContext): GoogleConfig {
  if (!ctx.config.google) throw new AppError(404, 'calendar_not_configured', MSG.calendar.notConfigured);
  return ctx.config.google;
}

export const redirectUri = (ctx: AppContext) => new URL(CALLBACK_PATH, ctx.config.publicUrl).toString();

interface UsableTokens {
  access: string;
  refresh: string | null;
  expiresAt: Date;
}

/** The stored tokens, decrypted; null when there are none or SECRET_KEY changed (then they are dropped). */
async function storedTokens(ctx: AppContext, userId: string): Promise<UsableTokens | null> {
  const row = await findGoogleTokens(ctx.db, userId);
  if (!row) return null;
  try {
    return {
      access: decryptSecret(ctx.config.secretKey, row.accessToken, boxContext(userId, 'access')),
      refresh: row.refreshToken
        ? decryptSecret(ctx.config.secretKey, row.refreshToken, boxContext(userId, 'refresh'))
        : null,
      expiresAt: row.expiresAt,
    };
  } catch (err) {
    if (!(err instanceof DecryptError)) throw err;
    ctx.log.warn({ userId }, 'stored Google token cannot be decrypted with the current SECRET_KEY');
    await deleteGoogleTokens(ctx.db, userId);
    return null;
  }
}

/** Keeps the tokens (encrypted) and marks the profile's gcal_enabled, together. */
async function storeTokens(ctx: AppContext, userId: string, t: GoogleTokens): Promise<void> {
  const key = ctx.config.secretKey;
  await withTransaction(ctx.db, async (tx) => {
    await saveGoogleTokens(tx, userId, {
      accessToken: encryptSecret(key, t.accessToken, boxContext(userId, 'access')),
      refreshToken: t.refreshToken ? encryptSecret(key, t.refreshToken, boxContext(userId, 'refresh')) : null,
      expiresAt: t.expiresAt,
      scope: t.scope,
    });
    await profiles.setGoogleCalendarEnabled(tx, userId, true);
  });
}

const fresh = (t: UsableTokens) => t.expiresAt.getTime() - EXPIRY_MARGIN_MS > Date.now();

/**
 * §4 Calendar connect: a token that is still valid (or can be refreshed) is reused and gcal_enabled is made
 * sure to be true; otherwise the browser has to visit the consent page.
 */
export async function calendarStatus(ctx: AppContext, userId: string): Promise<CalendarStatus> {
  const configured = !!ctx.config.google;
  const tokens = configured ? await storedTokens(ctx, userId) : null;
  const connected = !!tokens && (fresh(tokens) || !!tokens.refresh);
  if (connected) await profiles.setGoogleCalendarEnabled(ctx.db, userId, true);
  const row = connected ? await findGoogleTokens(ctx.db, userId) : undefined;
  return { google: { configured, connected, calendar_id: row?.calendarId ?? null } };
}

/** The consent page address; prompt=consent only when gcal_enabled was false. */
export async function startAuthorization(ctx: AppContext, userId: string): Promise<{ url: string; state: string }> {
  const google = googleConfig(ctx);
  const state = randomBytes(24).toString('base64url');
  const consent = !(await profiles.googleCalendarEnabled(ctx.db, userId));
  return { url: authorizationUrl(google, { redirectUri: redirectUri(ctx), state, consent }), state };
}

/** Trades the code from the consent page for tokens, kept encrypted on the server; gcal_enabled becomes true. */
export async function finishAuthorization(ctx: AppContext, userId: string, code: string): Promise<void> {
  const tokens = await exchangeCode(googleConfig(ctx), code, redirectUri(ctx));
  await storeTokens(ctx, userId, tokens);
}

/**
 * Disconnect: the stored tokens and chosen calendar are deleted and gcal_enabled set false (the next connect asks
 * for consent again), then the grant is revoked at Google. The revoke is best-effort: it runs after the local
 * disconnect, and its failure is only logged (the user can still remove the app in their Google account).
 */
export async function disconnectGoogle(ctx: AppContext, userId: string): Promise<void> {
  const tokens = await storedTokens(ctx, userId);
  // The tokens and the chosen calendar go, and the next connect asks for consent again.
  await withTransaction(ctx.db, async (tx) => {
    await deleteGoogleTokens(tx, userId);
    await profiles.setGoogleCalendarEnabled(tx, userId, false);
  });
  const google = ctx.config.google;
  if (!tokens || !google) return;
  try {
    await revokeToken(google, tokens.refresh ?? tokens.access);
  } catch (err) {
    const detail = err instanceof GoogleApiError ? { status: err.status } : { err };
    ctx.log.warn({ userId, ...detail }, 'Google token revoke failed; disconnected locally');
  }
}

/** A valid access token: the stored one while valid, else a refreshed one; 409 when the user must connect again. */
async function accessToken(ctx: AppContext, userId: string, forceRefresh = false): Promise<string> {
  const google = googleConfig(ctx);
  const tokens = await storedTokens(ctx, userId);
  if (!tokens) throw notConnected();
  if (!forceRefresh && fresh(tokens)) return tokens.access;
  if (!tokens.refresh) {
    await deleteGoogleTokens(ctx.db, userId);
    throw notConnected();
  }
  try {
    const renewed = await refreshAccessToken(google, tokens.refresh);
    await storeTokens(ctx, userId, renewed);
    return renewed.accessToken;
  } catch (err) {
    if (err instanceof GoogleAuthError) {
      await deleteGoogleTokens(ctx.db, userId);
      throw notConnected();
    }
    ctx.log.warn({ userId, status: (err as GoogleApiError).status ?? null }, 'Google token refresh failed');
    throw unreachable();
  }
}

/** Runs `call` with a valid token; a token Google refuses is refreshed once and the call tried again. */
async function withToken<T>(ctx: AppContext, userId: string, call: (token: string) => Promise<T>): Promise<T> {
  try {
    return await call(await accessToken(ctx, userId));
  } catch (err) {
    if (!(err instanceof GoogleAuthError)) throw err;
  }
  try {
    return await call(await accessToken(ctx, userId, true));
  } catch (err) {
    if (!(err instanceof GoogleAuthError)) throw err;
    await deleteGoogleTokens(ctx.db, userId);
    throw notConnected();
  }
}

/** §7 calendar client: the user's calendars (id, summary) that events can be added to. */
export async function googleCalendars(ctx: AppContext, userId: string): Promise<GoogleCalendarsResponse> {
  const google = googleConfig(ctx);
  try {
    return { calendars: await withToken(ctx, userId, (token) => listCalendars(google, token)) };
  } catch (err) {
    if (err instanceof GoogleApiError) {
      ctx.log.warn({ userId, status: err.status }, 'Google calendar list failed');
      throw unreachable();
    }
    throw err;
  }
}

/**
 * Inserts one §3 event per item into the chosen calendar, in the order given. A failed item does not stop the
 * others; the answer names every failure and carries the first created event's link.
 */
export async function exportToGoogle(
  ctx: AppContext,
  userId: string,
  input: GoogleExportInput,
): Promise<GoogleExportResponse> {
  const google = googleConfig(ctx);
  const items = await itemsToExport(ctx, userId, input.item_ids);
  await accessToken(ctx, userId); // not connected: refuse before anything is sent
  const results: ExportItemResult[] = [];
  let authLost = false;
  for (const item of items) {
    let link: string | null = null;
    if (!authLost) {
      try {
        link = await withToken(ctx, userId, (token) =>
          insertEvent(google, token, input.calendar_id, calendarEventFor(item.name, item.due_date)),
        );
      } catch (err) {
        // Not connected any more, or the token could not be renewed: the rest cannot succeed either.
        if (err instanceof AppError) authLost = true;
        else if (!(err instanceof GoogleApiError)) throw err;
        ctx.log.warn(
          { userId, item: item.id, status: err instanceof GoogleApiError ? err.status : 401 },
          'calendar event insert failed',
        );
      }
    }
    results.push({ id: item.id, name: item.name, ok: link !== null, html_link: link });
  }
  await saveChosenCalendar(ctx.db, userId, input.calendar_id);
  return {
    results,
    first_link: results.find((r) => r.html_link)?.html_link ?? null,
    failed: results.filter((r) => !r.ok).map((r) => r.name),
  };
}
