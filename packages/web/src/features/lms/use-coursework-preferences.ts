import { useCallback, useEffect, useState } from 'react';
import { DEFAULT_COURSEWORK_PREFERENCES, type CourseworkPreferences } from '@studybuddy/shared/lms';

const key = (userId: string) => `sb.coursework.prefs.${userId}`;
const SORTS = ['dueAsc', 'dueDesc', 'course'] as const;
const FILTERS = ['all', 'upcoming', 'past'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Saved preferences, with anything unreadable or unknown replaced by the default. */
function load(userId: string): CourseworkPreferences {
  try {
    const raw = JSON.parse(localStorage.getItem(key(userId)) ?? 'null') as Partial<CourseworkPreferences> | null;
    if (!raw || typeof raw !== 'object') return DEFAULT_COURSEWORK_PREFERENCES;
    const d = DEFAULT_COURSEWORK_PREFERENCES;
    const day = (v: unknown) => (typeof v === 'string' && DAY.test(v) ? v : null);
    const startDate = day(raw.startDate);
    const endDate = day(raw.endDate);
    return {
      selectedCourses: Array.isArray(raw.selectedCourses)
        ? raw.selectedCourses.filter((c) => typeof c === 'string')
        : d.selectedCourses,
      selectedGroup: typeof raw.selectedGroup === 'string' ? raw.selectedGroup : d.selectedGroup,
      sortBy: SORTS.includes(raw.sortBy as never) ? (raw.sortBy as CourseworkPreferences['sortBy']) : d.sortBy,
      filter: FILTERS.includes(raw.filter as never) ? (raw.filter as CourseworkPreferences['filter']) : d.filter,
      startDate,
      endDate,
      dateRangeActive: raw.dateRangeActive === true && !!startDate && !!endDate,
    };
  } catch {
    return DEFAULT_COURSEWORK_PREFERENCES;
  }
}

/** The Coursework filters, kept per user in this browser (requirements §3 assignment preferences). */
export function useCourseworkPreferences(userId: string) {
  const [prefs, setPrefs] = useState<CourseworkPreferences>(() => load(userId));

  useEffect(() => {
    try {
      localStorage.setItem(key(userId), JSON.stringify(prefs));
    } catch {
      // storage blocked: preferences last for this visit only
    }
  }, [userId, prefs]);

  const update = useCallback((changes: Partial<CourseworkPreferences>) => {
    setPrefs((p) => {
      const next = { ...p, ...changes };
      // The group select only applies (and is only enabled) with a course selected.
      if (!next.selectedCourses.length) next.selectedGroup = '';
      return next;
    });
  }, []);

  /** Reset Filters: no courses, all groups, due date ascending, upcoming, no dates. */
  const reset = useCallback(() => setPrefs(DEFAULT_COURSEWORK_PREFERENCES), []);
  return { prefs, update, reset };
}
