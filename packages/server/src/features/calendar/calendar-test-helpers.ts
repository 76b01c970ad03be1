import type { CourseworkItem } from '@studybuddy/shared/lms';
import { courseworkCache } from '../../db/schema.ts';
import type { TestApp } from '../../test/test-app.ts';
import type { TestUser } from '../../test/users.ts';

/** A coursework item as Canvas sync stores it; `due` null for an item without a due date. */
export function item(id: string, name: string, due: string | null): CourseworkItem {
  return {
    id,
    type: 'assignment',
    name,
    course_id: '101',
    assignment_group: 'Homework',
    due_date: due,
    points_possible: 10,
    is_graded: false,
    grade: null,
    submitted: false,
    html_url: `https://canvas.example.edu/courses/101/assignments/${id}`,
  };
}

/** Puts coursework into the user's server-side cache, as a load from Canvas would. */
export async function seedCoursework(app: TestApp['app'], user: TestUser, coursework: CourseworkItem[]): Promise<void> {
  await app.ctx.db.insert(courseworkCache).values({
    userId: user.id,
    connectionId: 'test-connection',
    coursesKey: '101',
    courses: [{ id: '101', name: 'CS 31' }],
    coursework,
    skippedCourses: [],
    fetchedAt: new Date(),
  });
}

export const inDays = (days: number, hourUtc = 17) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};
