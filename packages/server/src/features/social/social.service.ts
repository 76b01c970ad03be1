import { MSG } from '@studybuddy/shared/messages';
import type { Friend, IncomingRequest, NotificationBadge, PublicProfile } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import * as friendsRepo from './friends.repository.ts';
import { toPublicProfile } from './match.service.ts';
import { countIncoming, listIncoming, markAllViewed, pendingBetween } from './requests.repository.ts';

/** Are the two students friends? (For other features, e.g. chat: only friends may talk.) */
export function areFriends(db: Db, a: string, b: string): Promise<boolean> {
  return friendsRepo.areFriends(db, a, b);
}

/** Ids of the student's friends. */
export function friendIdsOf(db: Db, userId: string): Promise<string[]> {
  return friendsRepo.friendIds(db, userId);
}

export async function friendsOf(db: Db, userId: string): Promise<Friend[]> {
  return friendsRepo.listFriends(db, userId);
}

/** Pending requests addressed to the student (spec §6: requests addressed to self only). */
export async function incomingRequests(db: Db, userId: string): Promise<IncomingRequest[]> {
  return (await listIncoming(db, userId)).map((r) => ({
    id: r.id,
    from: { uid: r.fromUserId, name: r.name, profilePicture: r.profilePicture },
    viewed: r.viewed,
    timestamp: r.createdAt.toISOString(),
  }));
}

export function markRequestsViewed(db: Db, userId: string): Promise<number> {
  return markAllViewed(db, userId);
}

export async function notificationBadge(db: Db, userId: string): Promise<NotificationBadge> {
  const { pending, unviewed } = await countIncoming(db, userId);
  return { pending, unviewed: unviewed > 0 };
}

/**
 * A profile summary (spec §6: friends can view a friend's profile summary). Also visible to either side of a
 * pending request, so the addressee can look at the sender from the notifications page. Nobody else.
 */
export async function profileSummary(db: Db, viewerId: string, userId: string): Promise<PublicProfile> {
  if (userId !== viewerId) {
    const allowed =
      (await friendsRepo.areFriends(db, viewerId, userId)) || (await pendingBetween(db, viewerId, userId));
    if (!allowed) throw forbidden(MSG.friends.profileUnavailable);
  }
  const row = await friendsRepo.findPublicProfile(db, viewerId, userId);
  if (!row) throw notFound();
  return toPublicProfile(row);
}
