import { randomBytes } from 'node:crypto';
import type { CalendarFeedResponse } from '@studybuddy/shared/calendar';
import type { AppContext } from '../../platform/context.ts';
import { decryptSecret, DecryptError, encryptSecret } from '../../platform/crypto.ts';
import { notFound } from '../../platform/errors.ts';
import { sha256 } from '../../platform/passwords.ts';
import { deleteFeed, findFeed, findFeedOwner, saveFeed } from './calendar.repository.ts';
import { upcomingItems } from './export-items.ts';
import { buildIcs } from './ics.ts';
import { profiles } from '../profile/profiles.service.ts';

/** Feed secrets: 32 random bytes, base64url (43 characters). */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{43}$/;
const boxContext = (userId: string) => `calendar-feed:${userId}`;

const feedUrl = (ctx: AppContext, token: string) =>
  new URL(`/api/calendar/feed/${token}.ics`, ctx.config.publicUrl).toString();

export async function getFeed(ctx: AppContext, userId: string): Promise<CalendarFeedResponse> {
  const row = await findFeed(ctx.db, userId);
  if (!row) return { url: null };
  try {
    return { url: feedUrl(ctx, decryptSecret(ctx.config.secretKey, row.tokenBox, boxContext(userId))) };
  } catch (err) {
    if (!(err instanceof DecryptError)) throw err;
    // SECRET_KEY changed: the address cannot be shown again, so it is dropped and the user makes a new one.
    await deleteFeed(ctx.db, userId);
    return { url: null };
  }
}

/** Creates the private feed address, or replaces it: the old address answers 404 from now on. */
export async function regenerateFeed(ctx: AppContext, userId: string): Promise<CalendarFeedResponse> {
  const token = randomBytes(32).toString('base64url');
  await saveFeed(ctx.db, userId, sha256(token), encryptSecret(ctx.config.secretKey, token, boxContext(userId)));
  return { url: feedUrl(ctx, token) };
}

export async function revokeFeed(ctx: AppContext, userId: string): Promise<void> {
  await deleteFeed(ctx.db, userId);
}

/** The feed of the token's owner: their upcoming coursework and the events of the calendar sources (study sessions). 404 for an unknown or revoked token. */
export async function feedIcs(ctx: AppContext, token: string): Promise<string> {
  if (!FEED_TOKEN.test(token)) throw notFound();
  const userId = await findFeedOwner(ctx.db, sha256(token));
  if (!userId) throw notFound();
  const email = await profiles.email(ctx.db, userId);
  if (!email) throw notFound();
  const now = new Date();
  const entries = (await Promise.all(ctx.registry.calendarSources.map((source) => source(userId, now)))).flat();
  return buildIcs(await upcomingItems(ctx, userId, now), { userId, email }, entries);
}
