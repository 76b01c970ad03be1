import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TOKEN, startEmulator, type Emulator } from '@studybuddy/canvas-emulator/server';
import { courseworkItemSchema } from '@studybuddy/shared/lms';
import { CanvasClient } from './canvas-client.ts';
import { CanvasAuthError } from './canvas-errors.ts';
import { fetchCoursework } from './coursework-fetcher.ts';
import { submissionFields } from './coursework-mapper.ts';

let emu: Emulator;
const client = () => new CanvasClient({ baseUrl: emu.url, token: DEMO_TOKEN, backoffMs: 5 });
const FIELDS = [
  'course_id',
  'due_date',
  'grade',
  'html_url',
  'id',
  'is_graded',
  'name',
  'points_possible',
  'submitted',
  'type',
];

beforeAll(async () => {
  emu = await startEmulator({ throttle: false });
});
afterAll(() => emu.close());
afterEach(() => emu.clearFaults());

describe('coursework from Canvas', () => {
  it('lists the four types with exactly the §3 fields, each item once', async () => {
    const { coursework, skipped_courses } = await fetchCoursework(client(), ['1100', '1101']);
    expect(skipped_courses).toEqual([]);
    for (const item of coursework) {
      expect(courseworkItemSchema.strict().safeParse(item).success).toBe(true);
      const keys = Object.keys(item).sort();
      expect(keys).toEqual(item.type === 'assignment' ? [...FIELDS, 'assignment_group'].sort() : FIELDS);
    }
    expect(new Set(coursework.map((i) => i.type))).toEqual(
      new Set(['assignment', 'quiz', 'discussion', 'module_item']),
    );
    expect(new Set(coursework.map((i) => i.id)).size).toBe(coursework.length);

    // A graded classic quiz is also an assignment in Canvas: listed once, as a quiz, with the submission.
    const graded = emu.data.quizzes.find((q) => q.course_id === 1100 && q.assignment_id)!;
    const twin = emu.data.assignments.find((a) => a.id === graded.assignment_id)!;
    expect(coursework.filter((i) => i.name === graded.title)).toHaveLength(1);
    const quiz = coursework.find((i) => i.id === `quiz_${graded.id}`)!;
    expect(quiz.type).toBe('quiz');
    expect(quiz.submitted).toBe(twin.submission.submitted_at !== null);
    expect(quiz.grade).toBe(twin.submission.grade);
    // Graded discussions take their due date from the assignment; ungraded ones from the to-do date.
    const topic = emu.data.topics.find((t) => t.course_id === 1100 && t.assignment_id)!;
    const topicItem = coursework.find((i) => i.id === `discussion_${topic.id}`)!;
    expect(topicItem.due_date).toBe(emu.data.assignments.find((a) => a.id === topic.assignment_id)!.due_at);
    // Assignments carry their group's name and their submission.
    const plain = emu.data.assignments.find(
      (a) => a.course_id === 1100 && !a.quiz_id && !a.discussion_topic_id && a.submission.grade,
    )!;
    const item = coursework.find((i) => i.id === `assignment_${plain.id}`)!;
    const group = emu.data.assignmentGroups.find((g) => g.id === plain.assignment_group_id)!;
    expect(item).toMatchObject({ assignment_group: group.name, grade: plain.submission.grade, is_graded: true });
    // Module items: no sub-headers, none that repeat a listed assignment/quiz/discussion.
    const moduleItems = coursework.filter((i) => i.type === 'module_item');
    expect(moduleItems.length).toBeGreaterThan(0);
    const listedNames = new Set(coursework.filter((i) => i.type !== 'module_item').map((i) => i.name));
    expect(moduleItems.some((i) => listedNames.has(i.name))).toBe(false);
    expect(moduleItems.some((i) => /overview$/.test(i.name))).toBe(false);
  });

  it('skips a type Canvas refuses (403) or hides (404) for one course and lists it', async () => {
    emu.addFault({ kind: 'forbidden', courseId: 1101, resource: 'quizzes' });
    emu.addFault({ kind: 'tab_disabled', courseId: 1102, resource: 'modules' });
    emu.addFault({ kind: 'forbidden', courseId: 1102, resource: 'assignment_groups' });
    const { coursework, skipped_courses } = await fetchCoursework(client(), ['1100', '1101', '1102']);
    expect(skipped_courses).toEqual([
      { course_id: '1101', skipped_types: ['quiz'] },
      { course_id: '1102', skipped_types: ['assignment', 'module_item'] },
    ]);
    expect(coursework.some((i) => i.course_id === '1102' && i.type === 'assignment')).toBe(false);
    expect(coursework.some((i) => i.course_id === '1102' && i.type === 'quiz')).toBe(true);
    expect(coursework.some((i) => i.course_id === '1101' && i.type === 'assignment')).toBe(true);
    expect(coursework.some((i) => i.course_id === '1102' && i.type === 'module_item')).toBe(false);
    expect(coursework.some((i) => i.course_id === '1100' && i.type === 'quiz')).toBe(true);
  });

  it('fails as a whole when the token is dead', async () => {
    emu.addFault({ kind: 'expired_token', courseId: 1101 });
    await expect(fetchCoursework(client(), ['1100', '1101'])).rejects.toBeInstanceOf(CanvasAuthError);
  });
});

describe('submission fields', () => {
  it('reads submitted, grade and is_graded from the submission', () => {
    expect(submissionFields(undefined)).toEqual({ is_graded: false, grade: null, submitted: false });
    expect(submissionFields({ workflow_state: 'unsubmitted', submitted_at: null, grade: null })).toEqual({
      is_graded: false,
      grade: null,
      submitted: false,
    });
    expect(submissionFields({ workflow_state: 'submitted', submitted_at: '2026-01-01T00:00:00Z' })).toEqual({
      is_graded: false,
      grade: null,
      submitted: true,
    });
    expect(submissionFields([{ workflow_state: 'graded', submitted_at: '2026-01-01T00:00:00Z', grade: 'A-' }])).toEqual(
      {
        is_graded: true,
        grade: 'A-',
        submitted: true,
      },
    );
    expect(submissionFields({ workflow_state: 'graded', excused: true, grade: null })).toMatchObject({ grade: 'EX' });
  });
});
