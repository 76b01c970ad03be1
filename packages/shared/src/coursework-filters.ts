/**
 * The Coursework page's rules (requirements §4 Assignments filters, §9 calendar picker): pure, so they are unit-tested.
 */
import { LIMITS } from './limits.ts';
import type { CourseworkItem, CourseworkPreferences } from './lms.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** The calendar day of a moment in the runtime's local time zone (or `tz`), as YYYY-MM-DD. */
export function localDay(date: Date, tz?: string): string {
  if (!tz) return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' })
    .formatToParts(date)
    .reduce<Record<string, string>>((acc, p) => ({ ...acc, [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The days the date-range picker shows: 35 from the start (Sunday) of the current week. */
export function pickerDays(today: Date): string[] {
  const start = new Date(today.getFullYear(), today.getMonth(), today.getDate() - today.getDay());
  return Array.from({ length: LIMITS.calendarPickerDays }, (_, i) =>
    localDay(new Date(start.getFullYear(), start.getMonth(), start.getDate() + i)),
  );
}

export interface RangePick {
  startDate: string | null;
  endDate: string | null;
  /** The second click: the picker closes and the filter becomes active. */
  complete: boolean;
}

/** First click sets the start; the second sets the end, swapped when it is earlier than the start. */
export function pickRange(current: { startDate: string | null; endDate: string | null }, day: string): RangePick {
  if (current.startDate === null || current.endDate !== null) return { startDate: day, endDate: null, complete: false };
  const [a, b] = day < current.startDate ? [day, current.startDate] : [current.startDate, day];
  return { startDate: a, endDate: b, complete: true };
}

type Names = Record<string, string>;

const dueMs = (item: CourseworkItem) => (item.due_date === null ? null : Date.parse(item.due_date));

export function filterCoursework(
  items: CourseworkItem[],
  prefs: CourseworkPreferences,
  search: string,
  courseNames: Names,
  now: Date,
): CourseworkItem[] {
  const q = search.trim().toLowerCase();
  const courses = new Set(prefs.selectedCourses);
  const nowMs = now.getTime();
  return items.filter((item) => {
    if (courses.size && !courses.has(item.course_id)) return false;
    if (courses.size && prefs.selectedGroup) {
      if (item.type !== 'assignment' || item.assignment_group !== prefs.selectedGroup) return false;
    }
    const due = dueMs(item);
    if (prefs.filter === 'upcoming' && (due === null || due < nowMs)) return false;
    if (prefs.filter === 'past' && (due === null || due >= nowMs)) return false;
    if (prefs.dateRangeActive && prefs.startDate && prefs.endDate) {
      if (due === null) return false;
      const day = localDay(new Date(due));
      if (day < prefs.startDate || day > prefs.endDate) return false;
    }
    if (q) {
      const course = (courseNames[item.course_id] ?? '').toLowerCase();
      if (!item.name.toLowerCase().includes(q) && !course.includes(q)) return false;
    }
    return true;
  });
}

export function sortCoursework(
  items: CourseworkItem[],
  sortBy: CourseworkPreferences['sortBy'],
  courseNames: Names,
): CourseworkItem[] {
  const byDue = (dir: 1 | -1) => (a: CourseworkItem, b: CourseworkItem) => {
    const da = dueMs(a);
    const db = dueMs(b);
    if (da === null || db === null) return da === db ? a.name.localeCompare(b.name) : da === null ? 1 : -1;
    return (da - db) * dir || a.name.localeCompare(b.name);
  };
  const sorted = [...items];
  if (sortBy === 'course') {
    const asc = byDue(1);
    sorted.sort(
      (a, b) =>
        (courseNames[a.course_id] ?? a.course_id).localeCompare(courseNames[b.course_id] ?? b.course_id) || asc(a, b),
    );
  } else sorted.sort(byDue(sortBy === 'dueAsc' ? 1 : -1));
  return sorted;
}

/** The assignment groups of the selected courses (for the group select), by name. */
export function groupOptions(items: CourseworkItem[], selectedCourses: string[]): string[] {
  const courses = new Set(selectedCourses);
  const names = new Set<string>();
  for (const item of items) {
    if (item.type === 'assignment' && item.assignment_group && courses.has(item.course_id))
      names.add(item.assignment_group);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** '2 days 3 hours', '5 hours 12 minutes', '12 minutes'; null when the due moment has passed. */
export function timeRemaining(due: string, now: Date): string | null {
  const ms = Date.parse(due) - now.getTime();
  if (!(ms > 0)) return null;
  const minutes = Math.floor(ms / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return hours > 0 ? `${unit(days, 'day')} ${unit(hours, 'hour')}` : unit(days, 'day');
  if (hours > 0) return mins > 0 ? `${unit(hours, 'hour')} ${unit(mins, 'minute')}` : unit(hours, 'hour');
  return unit(Math.max(mins, 1), 'minute');
}

/** Courses get colours from a palette of 15, cycled in the order the courses are listed. */
export function courseColorIndex(courseId: string, orderedCourseIds: string[]): number {
  const i = orderedCourseIds.indexOf(courseId);
  return (i < 0 ? 0 : i) % LIMITS.coursePalette;
}
