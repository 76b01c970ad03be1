import { z } from 'zod';
import { MSG } from './messages.ts';

/** Contracts of the match finder, user search, friend requests, notifications and friends (spec §2–§6). */

const userId = z.string({ error: MSG.match.invalidMatch }).trim().min(1, MSG.match.invalidMatch).max(100);

export const MATCH_PAGE_MAX = 50;
export const MATCH_PAGE_DEFAULT = 10;
export const SEARCH_LIMIT_MAX = 25;
export const SEARCH_QUERY_MAX = 100;

export const matchQuerySchema = z.object({
  cursor: z.string().max(500).optional(),
  limit: z.coerce.number().int().min(1).max(MATCH_PAGE_MAX).default(MATCH_PAGE_DEFAULT),
});
export type MatchQuery = z.infer<typeof matchQuerySchema>;

export const searchQuerySchema = z.object({
  q: z.string().trim().min(1).max(SEARCH_QUERY_MAX),
  limit: z.coerce.number().int().min(1).max(SEARCH_LIMIT_MAX).default(10),
});
export type SearchQuery = z.infer<typeof searchQuerySchema>;

export const sendRequestSchema = z.object({ toUserId: userId });
export type SendRequestInput = z.infer<typeof sendRequestSchema>;

export const idParamSchema = z.object({ id: z.string().trim().min(1).max(100) });

/** Where a friend request between the viewer and another student stands. */
export type RequestState =
  | { kind: 'none' }
  | { kind: 'sent'; requestId: string }
  | { kind: 'received'; requestId: string };

/** A profile as another student may see it: never e-mail or LMS fields. */
export interface PublicProfile {
  uid: string;
  name: string;
  college: string;
  major: string;
  year: string;
  bio: string;
  profilePicture: string;
  /** Profile picture first, then the additional images. */
  images: string[];
  /** The viewer's names of the courses both take. */
  sharedCourses: string[];
}

/** Match candidate of spec §3: profile plus score, sharedCourses, images (and the request state). */
export interface MatchCandidate extends PublicProfile {
  score: number;
  request: RequestState;
}

export interface MatchPage {
  candidates: MatchCandidate[];
  /** Opaque; pass back as `cursor` for the next page. Null on the last page. */
  nextCursor: string | null;
}

export interface SearchResult {
  users: MatchCandidate[];
}

export type SendRequestResult =
  /** A pending request now exists from the viewer to the other student. */
  | { outcome: 'sent'; requestId: string }
  /** The other student had already asked: the two are now friends. */
  | { outcome: 'connected'; requestId: string };

export interface PersonRef {
  uid: string;
  name: string;
  profilePicture: string;
}

/** A pending request addressed to the viewer (notifications page). */
export interface IncomingRequest {
  id: string;
  from: PersonRef;
  viewed: boolean;
  /** ISO 8601 */
  timestamp: string;
}

export interface NotificationsList {
  requests: IncomingRequest[];
}

export interface NotificationBadge {
  /** Pending requests addressed to the viewer. */
  pending: number;
  /** True when any of them has not been viewed yet. */
  unviewed: boolean;
}

export interface Friend extends PersonRef {
  major: string;
  year: string;
}

export interface FriendsList {
  friends: Friend[];
}

/** Error codes the social API answers with (besides the generic ones of api-error.ts). */
export const SOCIAL_ERRORS = {
  requestExists: 'request_exists',
  requestNotFound: 'request_not_found',
  alreadyFriends: 'already_friends',
  selfRequest: 'self_request',
  otherCollege: 'other_college',
  notFriends: 'not_friends',
  profileIncomplete: 'profile_incomplete',
} as const;
