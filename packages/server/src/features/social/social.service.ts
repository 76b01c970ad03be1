import { MSG } from '@studybuddy/shared/messages';
import type { Friend, IncomingRequest, NotificationBadge, PublicProfile } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { forbidden, notFound } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';
import * as friendsRepo from './friends.repository.ts';
import { toPublicProfile } from './match.service.ts';
import { countIncoming, listIncoming, markAllViewed, pendingBetween } from './requests.repository.ts';

/**
 * Newest friendship first (the latest accepted request on top, requirements §4), then by name and id.
 * Friends without a profile are left out.
 */
export async function friendsOf(db: Db, userId: string): Promise<Friend[]> {
  const friends = await friendsRepo.friendsByRecency(db, userId);
  const cards = await profiles.cards(
    db,
    friends.map((f) => f.id),
  );
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return friends
    .flatMap((f) => {
      const card = cards.get(f.id);
      return card ? [{ rank: f.rank, card }] : [];
    })
    .sort(
      (a, b) => a.rank - b.rank || byName(a.card.lowercaseName, b.card.lowercaseName) || byName(a.card.id, b.card.id),
    )
    .map(({ card }) => ({
      uid: card.id,
      name: card.name,
      profilePicture: card.profilePicture,
      major: card.major,
      year: card.year,
    }));
}

/** Pending requests to the student (requirements §6: addressed to self only), from students with a profile. */
export async function incomingRequests(db: Db, userId: string): Promise<IncomingRequest[]> {
  const rows = await listIncoming(db, userId);
  const cards = await profiles.cards(
    db,
    rows.map((r) => r.fromUserId),
  );
  return rows.flatMap((r) => {
    const from = cards.get(r.fromUserId);
    if (!from) return [];
    return [
      {
        id: r.id,
        from: { uid: r.fromUserId, name: from.name, profilePicture: from.profilePicture },
        viewed: r.viewed,
        timestamp: r.createdAt.toISOString(),
      },
    ];
  });
}

export function markRequestsViewed(db: Db, userId: string): Promise<number> {
  return markAllViewed(db, userId);
}

export async function notificationBadge(db: Db, userId: string): Promise<NotificationBadge> {
  const { pending, unviewed } = await countIncoming(db, userId);
  return { pending, unviewed: unviewed > 0 };
}

/**
 * A profile summary (requirements §6: friends can view a friend's profile summary). Also visible to either side of a
 * pending request, so the addressee can look at the sender from the notifications page. Nobody else.
 */
export async function profileSummary(db: Db, viewerId: string, userId: string): Promise<PublicProfile> {
  if (userId !== viewerId) {
    const allowed =
      (await friendsRepo.areFriends(db, viewerId, userId)) || (await pendingBetween(db, viewerId, userId));
    if (!allowed) throw forbidden(MSG.friends.profileUnavailable);
  }
  const row = await profiles.publicCard(db, viewerId, userId);
  if (!row) throw notFound();
  return toPublicProfile(row);
}
