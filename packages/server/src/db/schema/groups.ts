import { index, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { cascadeRef, createdAt, lastMessageColumns } from './columns.ts';
import { users } from './auth.ts';

/** Groups and hot groups of requirements §3 (a hot group's id is `{courseId}_{itemId}`, also kept as hot_group_id). */
export const groups = pgTable('groups', {
  id: text('id').primaryKey(),
  kind: text('kind', { enum: ['group', 'hot'] }).notNull(),
  hotGroupId: text('hot_group_id').unique(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  groupImage: text('group_image').notNull().default(''),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  ...lastMessageColumns(),
  createdAt: createdAt(),
});

export const groupMembers = pgTable(
  'group_members',
  {
    groupId: cascadeRef('group_id', () => groups.id),
    userId: cascadeRef('user_id', () => users.id),
    joinedAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

/**
 * Invitations to a group for classmates who are not friends ("Find a study group", issue 27 part 5): nobody is
 * added before they accept; a declined or accepted invitation is deleted.
 */
export const groupInvitations = pgTable(
  'group_invitations',
  {
    groupId: cascadeRef('group_id', () => groups.id),
    userId: cascadeRef('user_id', () => users.id),
    invitedBy: cascadeRef('invited_by', () => users.id),
    /** The course as the inviter's profile names it. */
    course: text('course').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_invitations_user_idx').on(t.userId)],
);
