/** GET /api/v1/courses and GET /api/v1/courses/:id/assignments with their filters and orders. */
import { courseJson, assignmentJson } from './serializers.ts';
import { byName, courseOf, EmuHttpError, tabCheck, type RouteContext, type RouteResult } from './route-context.ts';

export function listCourses(ctx: RouteContext): RouteResult {
  const enrollmentState = ctx.url.searchParams.get('enrollment_state');
  const states = ctx.url.searchParams.getAll('state[]');
  let courses = ctx.data.courses;
  if (enrollmentState === 'active') courses = courses.filter((c) => c.enrollment === 'active');
  else if (enrollmentState === 'completed') courses = courses.filter((c) => c.enrollment === 'completed');
  else if (enrollmentState === 'invited_or_pending') courses = [];
  else if (states.length) courses = courses.filter((c) => states.includes(c.workflow_state));
  else courses = courses.filter((c) => c.enrollment !== 'completed');
  const list = [...courses].sort(byName).map((c) => courseJson(c, ctx.origin, ctx.data.user.id));
  return { list };
}

export function assignmentsOf(ctx: RouteContext, courseId: number) {
  const groups = ctx.data.assignmentGroups.filter((g) => g.course_id === courseId);
  const pos = (gid: number) => groups.find((g) => g.id === gid)?.position ?? 0;
  return ctx.data.assignments
    .filter((a) => a.course_id === courseId)
    .sort((a, b) => pos(a.assignment_group_id) - pos(b.assignment_group_id) || a.position - b.position || a.id - b.id);
}

const BUCKETS = ['past', 'overdue', 'undated', 'ungraded', 'unsubmitted', 'upcoming', 'future'];

export function listAssignments(ctx: RouteContext): RouteResult {
  const course = courseOf(ctx);
  tabCheck(course, 'assignments');
  let list = assignmentsOf(ctx, course.id);
  const bucket = ctx.url.searchParams.get('bucket');
  if (bucket !== null) {
    if (!BUCKETS.includes(bucket))
      throw new EmuHttpError(400, {
        errors: [{ message: 'bucket name must be one of the following: ' + BUCKETS.join(', ') }],
      });
    const now = Date.now();
    const due = (d: string | null) => (d === null ? null : Date.parse(d));
    list = list.filter((a) => {
      const d = due(a.due_at);
      const submitted = a.submission.submitted_at !== null;
      switch (bucket) {
        case 'past':
          return d !== null && d < now;
        case 'overdue':
          return d !== null && d < now && !submitted;
        case 'undated':
          return d === null;
        case 'ungraded':
          return a.submission.workflow_state !== 'graded';
        case 'unsubmitted':
          return !submitted;
        case 'upcoming':
          return d !== null && d >= now && d < now + 7 * 86_400_000;
        default:
          return d === null || d >= now;
      }
    });
  }
  const order = ctx.url.searchParams.get('order_by');
  if (order === 'name') list = [...list].sort(byName);
  if (order === 'due_at') list = [...list].sort((a, b) => (a.due_at ?? '\uffff').localeCompare(b.due_at ?? '\uffff'));
  const sub = ctx.include.has('submission');
  return {
    list: list.map((a) => assignmentJson(a, ctx.origin, ctx.data, { submission: sub, userId: ctx.data.user.id })),
  };
}
