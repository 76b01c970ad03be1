import { courseColorIndex } from '@studybuddy/shared/coursework-filters';

/** 15 course colours (requirements §9), cycled in the order the courses are listed. Used for borders and dots only. */
export const COURSE_PALETTE = [
  '#4263eb',
  '#0ca678',
  '#f76707',
  '#ae3ec9',
  '#1098ad',
  '#e03131',
  '#74b816',
  '#7048e8',
  '#d6336c',
  '#1c7ed6',
  '#f59f00',
  '#2f9e44',
  '#a0522d',
  '#495057',
  '#845ef7',
] as const;

export const courseColor = (courseId: string, orderedCourseIds: string[]) =>
  COURSE_PALETTE[courseColorIndex(courseId, orderedCourseIds)]!;
