import type { CourseworkItem } from '@studybuddy/shared/lms';
import type {
  CanvasAssignment,
  CanvasAssignmentGroup,
  CanvasModule,
  CanvasQuiz,
  CanvasSubmission,
  CanvasTopic,
} from './canvas-types.ts';

/** What Canvas returned for one course; a missing list was not readable (skipped). */
export interface CourseLists {
  groups?: CanvasAssignmentGroup[];
  assignments?: CanvasAssignment[];
  quizzes?: CanvasQuiz[];
  topics?: CanvasTopic[];
  modules?: CanvasModule[];
}

type SubmissionFields = Pick<CourseworkItem, 'is_graded' | 'grade' | 'submitted'>;

/** submitted, grade and is_graded from the caller's submission, where Canvas gives one. */
export function submissionFields(raw: CanvasSubmission | CanvasSubmission[] | undefined | null): SubmissionFields {
  const s = Array.isArray(raw) ? raw[0] : raw;
  if (!s) return { is_graded: false, grade: null, submitted: false };
  const state = s.workflow_state ?? 'unsubmitted';
  const submitted = !!s.submitted_at || state === 'submitted' || state === 'pending_review';
  const grade = s.excused ? 'EX' : (s.grade ?? null);
  return { is_graded: state === 'graded' && grade !== null, grade, submitted };
}

const str = (id: unknown) => String(id);
const dueOf = (d: string | null | undefined) => d ?? null;
const pointsOf = (p: number | null | undefined) => (typeof p === 'number' ? p : null);

/**
 * The §3 coursework items of one course. Graded quizzes and graded discussions also appear in /assignments;
 * they are listed once, under their own type, with the assignment's submission. Module items that point at an
 * item already listed (and sub-headers) are left out.
 */
export function mapCourseCoursework(courseId: string, lists: CourseLists): CourseworkItem[] {
  const out: CourseworkItem[] = [];
  const groupNames = new Map((lists.groups ?? []).map((g) => [str(g.id), g.name]));
  const quizAssignments = new Map<string, CanvasAssignment>();
  const topicAssignments = new Map<string, CanvasAssignment>();
  const listed = { Assignment: new Set<string>(), Quiz: new Set<string>(), Discussion: new Set<string>() };
  const quizIds = new Set((lists.quizzes ?? []).map((q) => str(q.id)));
  const topicIds = new Set((lists.topics ?? []).filter((t) => !t.is_announcement).map((t) => str(t.id)));

  for (const a of lists.assignments ?? []) {
    if (a.published === false) continue;
    const base = {
      course_id: courseId,
      name: a.name,
      due_date: dueOf(a.due_at),
      points_possible: pointsOf(a.points_possible),
    };
    if (a.quiz_id !== undefined && a.quiz_id !== null && quizIds.has(str(a.quiz_id))) {
      quizAssignments.set(str(a.quiz_id), a);
      listed.Assignment.add(str(a.id));
      continue;
    }
    if (a.discussion_topic && topicIds.has(str(a.discussion_topic.id))) {
      topicAssignments.set(str(a.discussion_topic.id), a);
      listed.Assignment.add(str(a.id));
      continue;
    }
    const quizLike = a.is_quiz_lti_assignment || (a.quiz_id !== undefined && a.quiz_id !== null);
    const discussionLike = !!a.discussion_topic;
    const type = quizLike ? 'quiz' : discussionLike ? 'discussion' : 'assignment';
    out.push({
      id: `${type}_${type === 'quiz' && a.quiz_id ? a.quiz_id : type === 'discussion' ? a.discussion_topic!.id : a.id}`,
      type,
      ...base,
      ...(type === 'assignment'
        ? {
            assignment_group:
              a.assignment_group_id != null ? (groupNames.get(str(a.assignment_group_id)) ?? null) : null,
          }
        : {}),
      ...submissionFields(a.submission),
      html_url: a.html_url ?? '',
    });
    listed.Assignment.add(str(a.id));
    if (type === 'quiz' && a.quiz_id) listed.Quiz.add(str(a.quiz_id));
    if (type === 'discussion') listed.Discussion.add(str(a.discussion_topic!.id));
  }

  for (const q of lists.quizzes ?? []) {
    if (q.published === false) continue;
    const a = quizAssignments.get(str(q.id));
    out.push({
      id: `quiz_${q.id}`,
      type: 'quiz',
      name: q.title,
      course_id: courseId,
      due_date: dueOf(q.due_at ?? a?.due_at),
      points_possible: pointsOf(q.points_possible ?? a?.points_possible),
      ...submissionFields(a?.submission),
      html_url: q.html_url ?? a?.html_url ?? '',
    });
    listed.Quiz.add(str(q.id));
  }

  for (const t of lists.topics ?? []) {
    if (t.is_announcement || t.published === false) continue;
    const a = topicAssignments.get(str(t.id)) ?? t.assignment ?? undefined;
    out.push({
      id: `discussion_${t.id}`,
      type: 'discussion',
      name: t.title,
      course_id: courseId,
      due_date: dueOf(a?.due_at ?? t.todo_date),
      points_possible: pointsOf(a?.points_possible),
      ...submissionFields(topicAssignments.get(str(t.id))?.submission),
      html_url: t.html_url ?? '',
    });
    listed.Discussion.add(str(t.id));
  }

  for (const m of lists.modules ?? []) {
    for (const item of m.items ?? []) {
      if (item.type === 'SubHeader') continue;
      const set = listed[item.type as keyof typeof listed] as Set<string> | undefined;
      if (set && item.content_id !== undefined && set.has(str(item.content_id))) continue;
      const req = item.completion_requirement;
      out.push({
        id: `module_item_${item.id}`,
        type: 'module_item',
        name: item.title,
        course_id: courseId,
        due_date: dueOf(item.content_details?.due_at),
        points_possible: pointsOf(item.content_details?.points_possible),
        is_graded: false,
        grade: null,
        submitted: !!req?.completed && (req.type === 'must_submit' || req.type === 'must_contribute'),
        html_url: item.html_url ?? item.external_url ?? '',
      });
    }
  }
  return out;
}
