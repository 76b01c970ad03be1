import { describe, expect, it } from 'vitest';
import {
  courseColorIndex,
  filterCoursework,
  groupOptions,
  localDay,
  pickerDays,
  pickRange,
  sortCoursework,
  timeRemaining,
} from './coursework-filters.ts';
import { DEFAULT_COURSEWORK_PREFERENCES, type CourseworkItem, type CourseworkPreferences } from './lms.ts';

const now = new Date(2026, 2, 11, 12, 0); // Wednesday 11 March 2026, noon local time
const at = (days: number, hours = 0) => new Date(now.getTime() + days * 86_400_000 + hours * 3_600_000).toISOString();

function item(over: Partial<CourseworkItem>): CourseworkItem {
  return {
    id: 'assignment_1',
    type: 'assignment',
    name: 'Item',
    course_id: '1',
    assignment_group: 'Homework',
    due_date: at(1),
    points_possible: 10,
    is_graded: false,
    grade: null,
    submitted: false,
    html_url: 'https://canvas.test/courses/1/assignments/1',
    ...over,
  };
}

const items = [
  item({ id: 'assignment_1', name: 'Problem Set 1', due_date: at(-3), course_id: '1' }),
  item({ id: 'assignment_2', name: 'Problem Set 2', due_date: at(2), course_id: '1' }),
  item({ id: 'assignment_3', name: 'Midterm Exam', due_date: at(9), course_id: '1', assignment_group: 'Exams' }),
  item({ id: 'quiz_4', type: 'quiz', name: 'Quiz 1', due_date: at(1), course_id: '2', assignment_group: undefined }),
  item({ id: 'module_item_5', type: 'module_item', name: 'Week 1 Notes', due_date: null, course_id: '2' }),
  item({ id: 'discussion_6', type: 'discussion', name: 'Reflection', due_date: at(5), course_id: '3' }),
];
const names = { '1': 'COM SCI 31', '2': 'MATH 31B', '3': 'ECON 1' };
const prefs = (over: Partial<CourseworkPreferences> = {}) => ({ ...DEFAULT_COURSEWORK_PREFERENCES, ...over });
const ids = (xs: CourseworkItem[]) => xs.map((x) => x.id);

describe('coursework filters', () => {
  it('defaults to upcoming items sorted by due date, earliest first', () => {
    const shown = sortCoursework(filterCoursework(items, prefs(), '', names, now), 'dueAsc', names);
    expect(ids(shown)).toEqual(['quiz_4', 'assignment_2', 'discussion_6', 'assignment_3']);
  });

  it('filters past and all; undated items only under All', () => {
    expect(ids(filterCoursework(items, prefs({ filter: 'past' }), '', names, now))).toEqual(['assignment_1']);
    expect(filterCoursework(items, prefs({ filter: 'all' }), '', names, now)).toHaveLength(6);
  });

  it('searches item and course names, case-insensitively', () => {
    const all = prefs({ filter: 'all' });
    expect(ids(filterCoursework(items, all, 'problem', names, now))).toEqual(['assignment_1', 'assignment_2']);
    expect(ids(filterCoursework(items, all, '  math 31b ', names, now))).toEqual(['quiz_4', 'module_item_5']);
  });

  it('filters by courses and, with a course selected, by assignment group', () => {
    const p = prefs({ filter: 'all', selectedCourses: ['1', '3'] });
    expect(ids(filterCoursework(items, p, '', names, now))).toEqual([
      'assignment_1',
      'assignment_2',
      'assignment_3',
      'discussion_6',
    ]);
    expect(ids(filterCoursework(items, { ...p, selectedGroup: 'Exams' }, '', names, now))).toEqual(['assignment_3']);
    expect(groupOptions(items, ['1'])).toEqual(['Exams', 'Homework']);
    expect(groupOptions(items, [])).toEqual([]);
    // Without a course selection the group is not applied.
    expect(filterCoursework(items, prefs({ filter: 'all', selectedGroup: 'Exams' }), '', names, now)).toHaveLength(6);
  });

  it('filters an active date range by local due day, inclusive', () => {
    const p = prefs({
      filter: 'all',
      dateRangeActive: true,
      startDate: localDay(new Date(at(1))),
      endDate: localDay(new Date(at(5))),
    });
    expect(ids(filterCoursework(items, p, '', names, now))).toEqual(['assignment_2', 'quiz_4', 'discussion_6']);
    expect(filterCoursework(items, { ...p, dateRangeActive: false }, '', names, now)).toHaveLength(6);
  });

  it('sorts latest first and by course, undated last', () => {
    const all = filterCoursework(items, prefs({ filter: 'all' }), '', names, now);
    expect(ids(sortCoursework(all, 'dueDesc', names))).toEqual([
      'assignment_3',
      'discussion_6',
      'assignment_2',
      'quiz_4',
      'assignment_1',
      'module_item_5',
    ]);
    expect(ids(sortCoursework(all, 'course', names))).toEqual([
      'assignment_1',
      'assignment_2',
      'assignment_3',
      'discussion_6',
      'quiz_4',
      'module_item_5',
    ]);
  });
});

describe('date range picker', () => {
  it('shows 35 days from the start of the current week', () => {
    const days = pickerDays(now);
    expect(days).toHaveLength(35);
    expect(days[0]).toBe('2026-03-08');
    expect(days[34]).toBe('2026-04-11');
    expect(new Set(days).size).toBe(35);
  });

  it('first click starts, second ends, an earlier second click is swapped, a third starts again', () => {
    const first = pickRange({ startDate: null, endDate: null }, '2026-03-20');
    expect(first).toEqual({ startDate: '2026-03-20', endDate: null, complete: false });
    expect(pickRange(first, '2026-03-25')).toEqual({ startDate: '2026-03-20', endDate: '2026-03-25', complete: true });
    expect(pickRange(first, '2026-03-12')).toEqual({ startDate: '2026-03-12', endDate: '2026-03-20', complete: true });
    expect(pickRange({ startDate: '2026-03-12', endDate: '2026-03-20' }, '2026-03-14')).toEqual({
      startDate: '2026-03-14',
      endDate: null,
      complete: false,
    });
  });

  it('names the local day in a given time zone', () => {
    const instant = new Date('2026-03-11T06:30:00Z');
    expect(localDay(instant, 'America/Los_Angeles')).toBe('2026-03-10');
    expect(localDay(instant, 'Asia/Tokyo')).toBe('2026-03-11');
  });
});

describe('cards', () => {
  it('says how much time is left, or null once past due', () => {
    expect(timeRemaining(at(2, 3), now)).toBe('2 days 3 hours');
    expect(timeRemaining(at(1), now)).toBe('1 day');
    expect(timeRemaining(at(0, 5.2), now)).toBe('5 hours 12 minutes');
    expect(timeRemaining(at(0, 0.2), now)).toBe('12 minutes');
    expect(timeRemaining(at(0, -1), now)).toBeNull();
  });

  it('cycles 15 course colours', () => {
    const order = Array.from({ length: 17 }, (_, i) => String(i));
    expect(courseColorIndex('0', order)).toBe(0);
    expect(courseColorIndex('14', order)).toBe(14);
    expect(courseColorIndex('15', order)).toBe(0);
    expect(courseColorIndex('16', order)).toBe(1);
  });
});
