import { z } from 'zod';
import { personSummarySchema } from './chat-responses.ts';
import { GROUP_LIMITS } from './groups.ts';
import { MSG } from './messages.ts';
import { STUDY_GROUPS_MSG } from './messages/study-groups.ts';
import { freeTogetherSchema } from './schedule.ts';

/**
 * "Find a study group" (issue 27 part 5): for one of the student's courses, the classmates at their college with
 * the most free time in common (only the overlap, never anyone's blocks), invited to a new group in one step.
 * Classmates who are not friends are invited, never added: each accepts or declines.
 */
export const STUDY_GROUP_LIMITS = {
  /** Classmates proposed at most (three to five when there are that many). */
  proposed: 5,
  /** Classmates invited in one request. */
  maxInvitees: 5,
  /** Invitations a student sends a day (the quota). */
  invitesPerDay: 50,
  /** Requests a minute per student to the suggestion and invitation routes. */
  perMinute: 20,
  courseMaxChars: 200,
} as const;

const M = STUDY_GROUPS_MSG.studyGroups;

const course = z
  .string({ error: M.courseRequired })
  .trim()
  .min(1, M.courseRequired)
  .max(STUDY_GROUP_LIMITS.courseMaxChars, M.courseRequired);

export const studyGroupQuerySchema = z.object({ course });

export const classmateSchema = personSummarySchema.extend({
  /** The longest block both are free in the viewer's zone (null: none, or no week entered). */
  freeTogether: freeTogetherSchema.nullable(),
});
export type Classmate = z.infer<typeof classmateSchema>;

export const studyGroupSuggestionsSchema = z.object({
  /** The course as the student wrote it in their profile. */
  course: z.string(),
  classmates: z.array(classmateSchema),
});
export type StudyGroupSuggestions = z.infer<typeof studyGroupSuggestionsSchema>;

export const createStudyGroupSchema = z.object({
  course,
  name: z
    .string({ error: MSG.groups.nameRequired })
    .trim()
    .min(1, MSG.groups.nameRequired)
    .max(GROUP_LIMITS.nameMaxChars),
  inviteeIds: z
    .array(z.string().trim().min(1).max(100), { error: M.selectClassmate })
    .min(1, M.selectClassmate)
    .max(STUDY_GROUP_LIMITS.maxInvitees, M.tooManyInvitees),
});
export type CreateStudyGroupInput = z.input<typeof createStudyGroupSchema>;

export const createStudyGroupResultSchema = z.object({ groupId: z.string(), invited: z.number() });
export type CreateStudyGroupResult = z.infer<typeof createStudyGroupResultSchema>;

export const groupInvitationSchema = z.object({
  groupId: z.string(),
  groupName: z.string(),
  course: z.string(),
  invitedBy: personSummarySchema,
  createdAt: z.string(),
});
export type GroupInvitation = z.infer<typeof groupInvitationSchema>;

export const groupInvitationListSchema = z.object({ invitations: z.array(groupInvitationSchema) });
export type GroupInvitationList = z.infer<typeof groupInvitationListSchema>;
