import type { Db } from '../../db/connect.ts';
import * as repo from './hot-groups.repository.ts';

/**
 * Who may be in a hot group `{courseId}_{itemId}`: students who hold that course at the group's college, by what
 * the server vouches for — their imported coursework (the LMS coursework cache, Canvas's answers) or their
 * profile courses (whose ids are Canvas's from an import, or the server's own for courses typed by hand). Canvas
 * course ids are only unique within one college's Canvas, so the group belongs to its creator's college (or, once
 * the creator is gone, to its longest-standing member's).
 */

export interface HotGroupParts {
  courseId: string;
  itemId: string;
}

/** The course and item of a hot group id; null for a regular group (their ids are UUIDs, with no '_'). */
export function hotGroupParts(groupId: string): HotGroupParts | null {
  const at = groupId.indexOf('_');
  if (at <= 0 || at === groupId.length - 1) return null;
  return { courseId: groupId.slice(0, at), itemId: groupId.slice(at + 1) };
}

export const isHotGroupId = (groupId: string) => hotGroupParts(groupId) !== null;

/**
 * Whether the student may use the hot group (read, send, listen, see its files): holds its course at its
 * college. Membership is checked by the caller. True for any id that is not a hot group's.
 */
export async function mayUseHotGroup(db: Db, userId: string, groupId: string): Promise<boolean> {
  const parts = hotGroupParts(groupId);
  if (!parts) return true;
  return repo.holdsAtGroupCollege(db, userId, groupId, parts.courseId);
}

/** The hot groups among `groupIds` the student may use. */
export async function usableHotGroups(db: Db, userId: string, groupIds: Iterable<string>): Promise<Set<string>> {
  const ids = [...new Set(groupIds)].filter(isHotGroupId);
  const ok = await Promise.all(ids.map((id) => mayUseHotGroup(db, userId, id)));
  return new Set(ids.filter((_, i) => ok[i]));
}

export interface HotGroupOpener {
  college: string;
  holdsCourse: boolean;
  /** The coursework item's title from the student's imported coursework, when it is there. */
  itemName: string | null;
}

/** What opening a hot group needs to know of the student, in one query; null without a profile. */
export async function hotGroupOpener(db: Db, userId: string, parts: HotGroupParts): Promise<HotGroupOpener | null> {
  const facts = await repo.openerFacts(db, userId, parts.courseId, parts.itemId);
  return facts.college === null ? null : { ...facts, college: facts.college };
}

/** The creator's college when the creator still holds the group's course; null when the group has no rightful owner. */
export async function rightfulOwnerCollege(db: Db, createdBy: string | null, courseId: string): Promise<string | null> {
  return createdBy ? repo.collegeIfHolding(db, createdBy, courseId) : null;
}

/** Removes the members who do not hold the course at `college` (joined before these rules, or dropped it). */
export const removeMembersWithoutCourse = repo.removeMembersWithoutCourse;
