import { z } from 'zod';
import { lastMessageShape, personSummarySchema } from './chat-responses.ts';
import { GROUP_KINDS } from './groups.ts';

/** What the groups API answers (each route's response schema; the web's types are inferred from them). */

const groupShape = {
  ...lastMessageShape,
  id: z.string(),
  kind: z.enum(GROUP_KINDS),
  name: z.string(),
  description: z.string(),
  groupImage: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  memberCount: z.number(),
};

export const groupSummarySchema = z.object({
  ...groupShape,
  /** Messages of others after the viewer's last read one. */
  unread: z.number(),
});
export type GroupSummary = z.infer<typeof groupSummarySchema>;

export const groupListSchema = z.object({ groups: z.array(groupSummarySchema) });
export type GroupList = z.infer<typeof groupListSchema>;

export const groupMemberSchema = personSummarySchema.extend({
  /** The creator shows an Admin badge. */
  isAdmin: z.boolean(),
});
export type GroupMember = z.infer<typeof groupMemberSchema>;

export const groupDetailSchema = z.object({ ...groupShape, members: z.array(groupMemberSchema) });
export type GroupDetail = z.infer<typeof groupDetailSchema>;

export const hotGroupResultSchema = z.object({
  id: z.string(),
  /** True when this call created the group, false when it joined an existing one. */
  created: z.boolean(),
});
export type HotGroupResult = z.infer<typeof hotGroupResultSchema>;

export const friendOptionsSchema = z.object({ friends: z.array(personSummarySchema) });
export type FriendOptions = z.infer<typeof friendOptionsSchema>;
