import { z } from 'zod';
import { freeTogetherSchema } from './schedule.ts';

/** What the social API answers (response schemas; the web's types are inferred from them). */

/** Where a friend request between the viewer and another student stands. */
export const requestStateSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('none') }),
  z.object({ kind: z.literal('sent'), requestId: z.string() }),
  z.object({ kind: z.literal('received'), requestId: z.string() }),
]);
export type RequestState = z.infer<typeof requestStateSchema>;

/** A profile as another student may see it: never e-mail or LMS fields. */
export const publicProfileSchema = z.object({
  uid: z.string(),
  name: z.string(),
  college: z.string(),
  major: z.string(),
  year: z.string(),
  bio: z.string(),
  profilePicture: z.string(),
  /** Profile picture first, then the additional images. */
  images: z.array(z.string()),
  /** The viewer's names of the courses both take. */
  sharedCourses: z.array(z.string()),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** Match candidate of requirements §3: profile plus score, sharedCourses, images (and the request state). */
export const matchCandidateSchema = publicProfileSchema.extend({
  score: z.number(),
  request: requestStateSchema,
  /** Beyond the spec (issue 27): the longest block both are usually free, in the viewer's zone; null: none known. */
  freeTogether: freeTogetherSchema.nullable().optional(),
});
export type MatchCandidate = z.infer<typeof matchCandidateSchema>;

export const matchPageSchema = z.object({
  candidates: z.array(matchCandidateSchema),
  /** Opaque; pass back as `cursor` for the next page. Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type MatchPage = z.infer<typeof matchPageSchema>;

export const searchResultSchema = z.object({ users: z.array(matchCandidateSchema) });
export type SearchResult = z.infer<typeof searchResultSchema>;

export const sendRequestResultSchema = z.discriminatedUnion('outcome', [
  /** A pending request now exists from the viewer to the other student. */
  z.object({ outcome: z.literal('sent'), requestId: z.string() }),
  /** The other student had already asked: the two are now friends. */
  z.object({ outcome: z.literal('connected'), requestId: z.string() }),
]);
export type SendRequestResult = z.infer<typeof sendRequestResultSchema>;

export const acceptRequestResultSchema = z.object({ friendId: z.string() });

export const personRefSchema = z.object({ uid: z.string(), name: z.string(), profilePicture: z.string() });
export type PersonRef = z.infer<typeof personRefSchema>;

/** A pending request addressed to the viewer (notifications page). */
export const incomingRequestSchema = z.object({
  id: z.string(),
  from: personRefSchema,
  viewed: z.boolean(),
  /** ISO 8601 */
  timestamp: z.string(),
});
export type IncomingRequest = z.infer<typeof incomingRequestSchema>;

export const notificationsListSchema = z.object({ requests: z.array(incomingRequestSchema) });
export type NotificationsList = z.infer<typeof notificationsListSchema>;

export const notificationsViewedSchema = z.object({ updated: z.number() });

export const notificationBadgeSchema = z.object({
  /** Pending requests addressed to the viewer. */
  pending: z.number(),
  /** True when any of them has not been viewed yet. */
  unviewed: z.boolean(),
});
export type NotificationBadge = z.infer<typeof notificationBadgeSchema>;

export const friendSchema = personRefSchema.extend({ major: z.string(), year: z.string() });
export type Friend = z.infer<typeof friendSchema>;

export const friendsListSchema = z.object({ friends: z.array(friendSchema) });
export type FriendsList = z.infer<typeof friendsListSchema>;
