import type { Db } from '../../db/connect.ts';
import { profiles } from '../profile/profiles.service.ts';
import * as repo from './friends.repository.ts';

/**
 * The social feature owns the friendships (`connections`); other features ask it who is whose friend. Every
 * function takes the `Db` to use, so a caller's transaction can include it.
 */
export const friendships = {
  areFriends: (db: Db, a: string, b: string): Promise<boolean> => repo.areFriends(db, a, b),
  friendIds: (db: Db, userId: string): Promise<string[]> => repo.friendIds(db, userId),
  /** Which of `ids` are friends of the user. */
  friendsAmong: (db: Db, userId: string, ids: string[]): Promise<Set<string>> => repo.friendsAmong(db, userId, ids),
  /** The user's friends who have a profile, with their names (the search box titles one-to-one chats with them). */
  async names(db: Db, userId: string): Promise<Map<string, string>> {
    const cards = await profiles.cards(db, await repo.friendIds(db, userId));
    return new Map([...cards.values()].map((card) => [card.id, card.name]));
  },
  /** SQL other features embed where one statement must do the work (the chat batch write, resync, chat lists). */
  sql: { areFriends: repo.areFriendsSql },
};
