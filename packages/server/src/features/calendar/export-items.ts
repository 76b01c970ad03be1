import type { CourseworkItem } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import type { AppContext } from '../../platform/context.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { cachedCoursework } from '../lms/coursework.service.ts';

/** A coursework item that can be exported: it has a due date. */
export type DatedItem = CourseworkItem & { due_date: string };

const hasDueDate = (i: CourseworkItem): i is DatedItem => !!i.due_date && !Number.isNaN(Date.parse(i.due_date));

/**
 * The user's own coursework items with these ids, in the order given (duplicates dropped), read from the
 * server's coursework cache: names and due dates come from Canvas, never from the request. Unknown ids and
 * items without a due date are refused.
 */
export async function itemsToExport(ctx: AppContext, userId: string, ids: string[]): Promise<DatedItem[]> {
  const coursework = await cachedCoursework(ctx, userId);
  if (!coursework) throw new AppError(409, 'coursework_not_loaded', MSG.calendar.noCoursework);
  const byId = new Map(coursework.map((i) => [i.id, i]));
  const items = [...new Set(ids)].map((id) => byId.get(id));
  if (items.some((i) => i === undefined)) throw badRequest(MSG.calendar.unknownItems, 'item_ids');
  const found = items as CourseworkItem[];
  const undated = found.filter((i) => !hasDueDate(i));
  if (undated.length) throw badRequest(MSG.calendar.noDueDate(undated.map((i) => i.name).join(', ')), 'item_ids');
  return found as DatedItem[];
}

/** The user's coursework due from `now` on, earliest first (the subscription feed). */
export async function upcomingItems(ctx: AppContext, userId: string, now: Date): Promise<DatedItem[]> {
  return ((await cachedCoursework(ctx, userId)) ?? [])
    .filter(hasDueDate)
    .filter((i) => Date.parse(i.due_date) >= now.getTime())
    .sort((a, b) => Date.parse(a.due_date) - Date.parse(b.due_date));
}
