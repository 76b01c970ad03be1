import { z } from 'zod';

/**
 * Blocking another student (issue 24 point 1; beyond the spec on purpose). A blocked pair never meet: no
 * suggestion, search hit or friend request either way, no friendship, no one-to-one messages. The blocker keeps
 * their chat's history read-only, and their app folds the blocked student's group messages.
 */

export const blockInputSchema = z.object({ userId: z.string().trim().min(1).max(100) });
export type BlockInput = z.infer<typeof blockInputSchema>;

/** A student the viewer blocked, as Profile → Blocked students lists them. */
export const blockedStudentSchema = z.object({
  uid: z.string(),
  name: z.string(),
  profilePicture: z.string(),
  blockedAt: z.string(),
});
export type BlockedStudent = z.infer<typeof blockedStudentSchema>;

/** Newest block first. */
export const blockedListSchema = z.object({ blocked: z.array(blockedStudentSchema) });
export type BlockedList = z.infer<typeof blockedListSchema>;

export const blockResultSchema = z.object({ blocked: z.literal(true) });
export const unblockResultSchema = z.object({ blocked: z.literal(false) });

export const BLOCK_ERRORS = {
  selfBlock: 'self_block',
  /** The viewer blocked this student: they must unblock before sending a request (the blocked side never hears). */
  youBlocked: 'you_blocked',
} as const;
