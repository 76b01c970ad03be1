import { MSG } from '@studybuddy/shared/messages';
import { SOCIAL_ERRORS, type Friend, type PublicProfile } from '@studybuddy/shared/social';
import type { Db } from '../../db/connect.ts';
import { withTransaction } from '../../db/transaction.ts';
import { AppError, forbidden, notFound } from '../../platform/errors.ts';
import { profiles } from '../profile/profiles.service.ts';
import * as friendsRepo from './friends.repository.ts';
import { toPublicProfile } from './public-profile.ts';
import type { MembersService } from './members.service.ts';
import type { RequestNotices } from './request-notices.service.ts';
import { lockPair, pendingBetween } from './requests.repository.ts';

export type FriendsService = ReturnType<typeof createFriendsService>;

/** A student's friends: the list, unfriending, and a friend's profile summary. */
export function createFriendsService(deps: { db: Db; members: MembersService; notices: RequestNotices }) {
  const { db, members, notices } = deps;
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

  return {
    /**
     * Newest friendship first (the latest accepted request on top, requirements §4), then by name and id.
     * Friends without a profile are left out.
     */
    async list(userId: string): Promise<Friend[]> {
      const me = await members.require(userId);
      const friends = await friendsRepo.friendsByRecency(db, me.id);
      const cards = await profiles.cards(
        db,
        friends.map((f) => f.id),
      );
      return friends
        .flatMap((f) => {
          const card = cards.get(f.id);
          return card ? [{ rank: f.rank, card }] : [];
        })
        .sort(
          (a, b) =>
            a.rank - b.rank || byName(a.card.lowercaseName, b.card.lowercaseName) || byName(a.card.id, b.card.id),
        )
        .map(({ card }) => ({
          uid: card.id,
          name: card.name,
          profilePicture: card.profilePicture,
          major: card.major,
          year: card.year,
        }));
    },

    /** Unfriend (requirements §4): each is removed from the other's connections, and their chat closes at once. */
    async unfriend(userId: string, friendId: string): Promise<void> {
      const me = await members.require(userId);
      const removed = await withTransaction(db, async (tx) => {
        await lockPair(tx, me.id, friendId);
        return friendsRepo.removeFriendship(tx, me.id, friendId);
      });
      if (!removed) throw new AppError(404, SOCIAL_ERRORS.notFriends, MSG.friends.notFriends);
      notices.changed([me.id, friendId]);
      notices.chatClosed(me.id, friendId);
    },

    /**
     * A profile summary (requirements §6: friends can view a friend's profile summary). Also visible to either side
     * of a pending request, so the addressee can look at the sender from the notifications page. Nobody else.
     */
    async profileSummary(viewerId: string, userId: string): Promise<PublicProfile> {
      await members.require(viewerId);
      if (userId !== viewerId) {
        const allowed =
          (await friendsRepo.areFriends(db, viewerId, userId)) || (await pendingBetween(db, viewerId, userId));
        if (!allowed) throw forbidden(MSG.friends.profileUnavailable);
      }
      const row = await profiles.publicCard(db, viewerId, userId);
      if (!row) throw notFound();
      return toPublicProfile(row);
    },
  };
}
