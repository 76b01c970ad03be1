import type { CourseworkItem, CourseworkType, SkippedCourse } from '@studybuddy/shared/lms';
import type { CanvasClient } from './canvas-client.ts';
import { CanvasAuthError, isSkippable } from './canvas-errors.ts';
import { mapCourseCoursework, type CourseLists } from './coursework-mapper.ts';

export interface CourseworkResult {
  coursework: CourseworkItem[];
  skipped_courses: SkippedCourse[];
}

const LISTS = [
  { key: 'quizzes', type: 'quiz' },
  { key: 'topics', type: 'discussion' },
  { key: 'modules', type: 'module_item' },
] as const;

/**
 * Loads the coursework of the given courses: four lists per course (assignments come inside their groups), all
 * requested at once and bounded by the client's gate. A type Canvas refuses (403, or 404 for a hidden tab) is skipped for that course and reported;
 * an invalid token or any other failure fails the whole load.
 */
export async function fetchCoursework(client: CanvasClient, courseIds: string[]): Promise<CourseworkResult> {
  const perCourse = await Promise.allSettled(
    courseIds.map(async (courseId) => {
      const [groups, ...lists] = await Promise.allSettled([
        client.listAssignmentGroups(courseId),
        client.listQuizzes(courseId),
        client.listDiscussionTopics(courseId),
        client.listModules(courseId),
      ]);
      const data: CourseLists = {};
      const skipped: CourseworkType[] = [];
      const failures: unknown[] = [];
      if (groups.status === 'fulfilled') {
        data.groups = groups.value;
        data.assignments = groups.value.flatMap((g) => g.assignments ?? []);
      } else if (isSkippable(groups.reason)) skipped.push('assignment');
      else failures.push(groups.reason);
      lists.forEach((result, i) => {
        const { key, type } = LISTS[i]!;
        if (result.status === 'fulfilled') (data as Record<string, unknown>)[key] = result.value;
        else if (isSkippable(result.reason)) skipped.push(type);
        else failures.push(result.reason);
      });
      const fatal = failures.find((e) => e instanceof CanvasAuthError) ?? failures[0];
      if (fatal) throw fatal;
      return { items: mapCourseCoursework(courseId, data), skipped: { course_id: courseId, skipped_types: skipped } };
    }),
  );
  const rejected = perCourse.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason);
  const fatal = rejected.find((e) => e instanceof CanvasAuthError) ?? rejected[0];
  if (rejected.length) throw fatal;
  const ok = perCourse.map(
    (r) => (r as PromiseFulfilledResult<{ items: CourseworkItem[]; skipped: SkippedCourse }>).value,
  );
  return {
    coursework: ok.flatMap((r) => r.items),
    skipped_courses: ok.map((r) => r.skipped).filter((s) => s.skipped_types.length > 0),
  };
}
