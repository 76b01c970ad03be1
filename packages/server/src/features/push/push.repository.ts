import { and, count, eq, gt, inArray, isNull, lt, notExists, or, sql } from 'drizzle-orm';
import type { PushSettings } from '@studybuddy/shared/push';
import type { Db } from '../../db/connect.ts';
import { pushMutedGroups, pushSettings, pushSubscriptions, pushVisibleTabs } from '../../db/schema/push.ts';
import { accountSessions } from '../auth/sessions.service.ts';

/** Only this file touches the push tables. */

export interface SubscriptionRow {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
}

export async function subscriptionCount(db: Db, userId: string, exceptId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), sql`${pushSubscriptions.id} <> ${exceptId}`));
  return row?.n ?? 0;
}

/** Stores the browser's subscription for this student and session (a browser re-subscribing replaces its row). */
export async function saveSubscription(db: Db, row: SubscriptionRow & { sessionId: string }): Promise<void> {
  await db
    .insert(pushSubscriptions)
    .values(row)
    .onConflictDoUpdate({
      target: pushSubscriptions.id,
      set: { userId: row.userId, sessionId: row.sessionId, endpoint: row.endpoint, p256dh: row.p256dh, auth: row.auth },
    });
}

export async function deleteOwnSubscription(db: Db, userId: string, id: string): Promise<boolean> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return gone.length > 0;
}

/** The sessions ended (log-out, expiry, …): their browsers' subscriptions go with them. */
export async function deleteSessionSubscriptions(db: Db, sessionIds: readonly string[]): Promise<void> {
  if (!sessionIds.length) return;
  await db.delete(pushSubscriptions).where(inArray(pushSubscriptions.sessionId, [...sessionIds]));
}

/** The push service said the subscription is gone (404/410). */
export async function deleteSubscription(db: Db, id: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

export async function readSettings(db: Db, userId: string): Promise<PushSettings> {
  const [row] = await db
    .select({ messages: pushSettings.messages, friendRequests: pushSettings.friendRequests })
    .from(pushSettings)
    .where(eq(pushSettings.userId, userId))
    .limit(1);
  return row ?? { messages: true, friendRequests: true };
}

export async function writeSettings(db: Db, userId: string, settings: PushSettings): Promise<void> {
  await db
    .insert(pushSettings)
    .values({ userId, ...settings })
    .onConflictDoUpdate({ target: pushSettings.userId, set: { ...settings, updatedAt: new Date() } });
}

export async function mutedGroupsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ groupId: pushMutedGroups.groupId })
    .from(pushMutedGroups)
    .where(eq(pushMutedGroups.userId, userId))
    .orderBy(pushMutedGroups.createdAt);
  return rows.map((r) => r.groupId);
}

export async function setGroupMuted(db: Db, userId: string, groupId: string, muted: boolean): Promise<void> {
  if (muted) await db.insert(pushMutedGroups).values({ userId, groupId }).onConflictDoNothing();
  else
    await db
      .delete(pushMutedGroups)
      .where(and(eq(pushMutedGroups.userId, userId), eq(pushMutedGroups.groupId, groupId)));
}

/**
 * The subscriptions a notice of this kind goes to: the students' browsers whose session is live (unexpired, the
 * account not disabled), less the students who turned the kind off, who muted the group, or (for messages) who
 * have a visible tab right now.
 */
export async function targetsOf(
  db: Db,
  userIds: readonly string[],
  notice: { kind: 'messages' | 'friendRequests'; groupId?: string },
): Promise<SubscriptionRow[]> {
  if (!userIds.length) return [];
  const wanted = notice.kind === 'messages' ? pushSettings.messages : pushSettings.friendRequests;
  const muted = notice.groupId
    ? notExists(
        db
          .select({ one: sql`1` })
          .from(pushMutedGroups)
          .where(
            and(eq(pushMutedGroups.userId, pushSubscriptions.userId), eq(pushMutedGroups.groupId, notice.groupId)),
          ),
      )
    : undefined;
  const visible =
    notice.kind === 'messages'
      ? notExists(
          db
            .select({ one: sql`1` })
            .from(pushVisibleTabs)
            .where(
              and(eq(pushVisibleTabs.userId, pushSubscriptions.userId), gt(pushVisibleTabs.visibleUntil, sql`now()`)),
            ),
        )
      : undefined;
  return db
    .select({
      id: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
    })
    .from(pushSubscriptions)
    .leftJoin(pushSettings, eq(pushSettings.userId, pushSubscriptions.userId))
    .where(
      and(
        inArray(pushSubscriptions.userId, [...userIds]),
        accountSessions.sql.isLive(sql`${pushSubscriptions.sessionId}`),
        or(isNull(pushSettings.userId), eq(wanted, true)),
        muted,
        visible,
      ),
    );
}

/** Of these students and groups, the pairs where the student muted the group, as `userId|groupId`. */
export async function mutedPairs(
  db: Db,
  userIds: readonly string[],
  groupIds: readonly string[],
): Promise<Set<string>> {
  if (!userIds.length || !groupIds.length) return new Set();
  const rows = await db
    .select({ userId: pushMutedGroups.userId, groupId: pushMutedGroups.groupId })
    .from(pushMutedGroups)
    .where(and(inArray(pushMutedGroups.userId, [...userIds]), inArray(pushMutedGroups.groupId, [...groupIds])));
  return new Set(rows.map((r) => `${r.userId}|${r.groupId}`));
}

/** A tab became visible (or is still): visible until `ttlMs` from now unless refreshed. */
export async function markVisible(db: Db, socketId: string, userId: string, ttlMs: number): Promise<void> {
  const until = sql`now() + ${`${Math.round(ttlMs)} milliseconds`}::interval`;
  await db
    .insert(pushVisibleTabs)
    .values({ id: socketId, userId, visibleUntil: until })
    .onConflictDoUpdate({ target: pushVisibleTabs.id, set: { visibleUntil: until } });
}

export async function clearVisible(db: Db, socketIds: readonly string[]): Promise<void> {
  if (socketIds.length) await db.delete(pushVisibleTabs).where(inArray(pushVisibleTabs.id, [...socketIds]));
}

/** Extends this instance's visible tabs, and drops rows long expired (their instance stopped without clearing). */
export async function refreshVisible(db: Db, socketIds: readonly string[], ttlMs: number): Promise<void> {
  const until = sql`now() + ${`${Math.round(ttlMs)} milliseconds`}::interval`;
  if (socketIds.length) {
    await db
      .update(pushVisibleTabs)
      .set({ visibleUntil: until })
      .where(inArray(pushVisibleTabs.id, [...socketIds]));
  }
  await db.delete(pushVisibleTabs).where(lt(pushVisibleTabs.visibleUntil, sql`now() - interval '1 hour'`));
}
