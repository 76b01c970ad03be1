import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { at, cascadeRef, createdAt } from './columns.ts';
import { users } from './auth.ts';

/**
 * Friend requests of requirements §3/§4: pending, then accepted (acceptedAt set, connections added) or declined.
 * At most one pending request per (from, to). An unsent request is deleted.
 *
 * The match finder and user search also use partial indexes on `profiles` (complete profiles only), created by
 * the hand-written migration `*_social_indexes.sql`: profiles_match_recent_idx, profiles_match_major_idx,
 * profiles_match_year_idx and profiles_search_name_idx; and `*_social_course_sharers_index.sql`: profile_courses_key_user_idx
 * (course_key, user_id), for counting the students who share the viewer's courses; and `*_search.sql`:
 * profiles_name_search_idx, a GIN index of the words of complete profiles' names (the search box).
 */
export const friendRequests = pgTable(
  'friend_requests',
  {
    id: text('id').primaryKey(),
    fromUserId: cascadeRef('from_user_id', () => users.id),
    toUserId: cascadeRef('to_user_id', () => users.id),
    status: text('status', { enum: ['pending', 'accepted', 'declined'] })
      .notNull()
      .default('pending'),
    viewed: boolean('viewed').notNull().default(false),
    /** When the request was sent (spec `timestamp`). */
    createdAt: createdAt(),
    acceptedAt: at('accepted_at'),
  },
  (t) => [
    uniqueIndex('friend_requests_one_pending_idx')
      .on(t.fromUserId, t.toUserId)
      .where(sql`status = 'pending'`),
    index('friend_requests_to_pending_idx')
      .on(t.toUserId, t.createdAt)
      .where(sql`status = 'pending'`),
  ],
);

/** When a friend-request e-mail last went from one sender to one recipient (at most one a day per pair). */
export const friendRequestMails = pgTable(
  'friend_request_mails',
  {
    fromUserId: cascadeRef('from_user_id', () => users.id),
    toUserId: cascadeRef('to_user_id', () => users.id),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.fromUserId, t.toUserId] })],
);

/** Friendships, one row per direction (a and b both have a row), so "my friends" is one indexed lookup. */
export const connections = pgTable(
  'connections',
  {
    userId: cascadeRef('user_id', () => users.id),
    friendId: cascadeRef('friend_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.friendId] }), index('connections_friend_idx').on(t.friendId)],
);

/**
 * Blocks (issue 24): `blockerId` blocked `blockedId`. One row per direction that was chosen (two students may block
 * each other). While a row exists the two never meet: no suggestion, search hit or friend request either way, no
 * friendship and no one-to-one messages; the blocker keeps their chat's history read-only, and in a group they
 * share the blocker's app folds the blocked student's messages (no push notice or unread count for them).
 */
export const blocks = pgTable(
  'blocks',
  {
    blockerId: cascadeRef('blocker_id', () => users.id),
    blockedId: cascadeRef('blocked_id', () => users.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.blockerId, t.blockedId] }), index('blocks_blocked_idx').on(t.blockedId)],
);
