import { z } from 'zod';
import { MSG } from './messages.ts';

/** Contracts of the match finder, user search, friend requests, notifications and friends (requirements §2–§6). */

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

export type {
  Friend,
  FriendsList,
  IncomingRequest,
  MatchCandidate,
  MatchPage,
  NotificationBadge,
  NotificationsList,
  PersonRef,
  PublicProfile,
  RequestState,
  SearchResult,
  SendRequestResult,
} from './social-responses.ts';

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
