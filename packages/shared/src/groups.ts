import { z } from 'zod';
import { MSG } from './messages.ts';

/** Contracts of groups and hot groups (requirements §2 Groups, §3 Group and hot group, §5, §6). */

export const GROUP_LIMITS = {
  nameMaxChars: 100,
  descriptionMaxChars: 500,
  hotGroupNameMaxChars: 200,
  /** Friends added in one request. */
  membersPerRequest: 100,
} as const;

export const GROUP_KINDS = ['group', 'hot'] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];

const memberIds = z
  .array(z.string().trim().min(1).max(100), { error: MSG.groups.selectFriend })
  .min(1, MSG.groups.selectFriend)
  .max(GROUP_LIMITS.membersPerRequest);

export const createGroupSchema = z.object({
  name: z
    .string({ error: MSG.groups.nameRequired })
    .trim()
    .min(1, MSG.groups.nameRequired)
    .max(GROUP_LIMITS.nameMaxChars),
  description: z.string().trim().max(GROUP_LIMITS.descriptionMaxChars).default(''),
  memberIds,
});
export type CreateGroupInput = z.input<typeof createGroupSchema>;

export const addMembersSchema = z.object({ memberIds });
export type AddMembersInput = z.infer<typeof addMembersSchema>;

export const groupListQuerySchema = z.object({ kind: z.enum(GROUP_KINDS).default('group') });

// Canvas ids are numbers ('1102', 'quiz_123'); other LMS ids stay in a safe alphabet. The course id has no
// underscore, so the hot group id `{courseId}_{itemId}` names exactly one pair.
const lmsId = (pattern: RegExp) =>
  z.preprocess(
    (v) => (typeof v === 'number' ? String(v) : v),
    z.string({ error: MSG.groups.hotGroupInvalid }).trim().regex(pattern, MSG.groups.hotGroupInvalid),
  );

export const hotGroupSchema = z.object({
  courseId: lmsId(/^[A-Za-z0-9.:-]{1,64}$/),
  itemId: lmsId(/^[A-Za-z0-9_.:-]{1,128}$/),
  /** Ignored: the server names the group after the coursework item it finds in the student's coursework. */
  name: z.string().trim().max(500).optional(),
});
export type HotGroupInput = z.infer<typeof hotGroupSchema>;

/** Requirements §3: a hot group's id is `{courseId}_{itemId}`. */
export function hotGroupIdFor(courseId: string | number, itemId: string | number): string {
  return `${courseId}_${itemId}`;
}

export type {
  FriendOptions,
  GroupDetail,
  GroupList,
  GroupMember,
  GroupSummary,
  HotGroupResult,
} from './groups-responses.ts';
