import { createHash } from 'node:crypto';
import { ASSIGNMENT_GROUPS, ASSIGNMENT_KINDS, CATALOG, COMPLETED_COURSE, type CatalogCourse } from './catalog.ts';
import type { EmuAssignment, EmuCourse, EmuData, EmuSubmission, EmuTopic } from './model.ts';
import { addFilesAndModules } from './demo-content.ts';

export interface DataOptions {
  /** Due dates are laid out around this moment (default: now), so the demo always has upcoming work. */
  now?: Date;
  seed?: number;
  /** Courses the student is actively enrolled in (default 12, more than the 10 the product imports). */
  activeCourses?: number;
  /** Adds a concluded course and a course restricted by date (default true). */
  extraCourses?: boolean;
  assignmentsPerCourse?: number;
  quizzesPerCourse?: number;
  discussionsPerCourse?: number;
  modulesPerCourse?: number;
  itemsPerModule?: number;
  filesPerCourse?: number;
}

const DAY = 24 * 60 * 60 * 1000;

function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuid = (s: string) => createHash('sha1').update(s).digest('base64url').slice(0, 40);

/** 11:59 pm in Los Angeles on the day `offset` days from `now`, as Canvas sends it (UTC, Z). */
function dueAt(now: Date, offsetDays: number): string {
  const d = new Date(now.getTime() + offsetDays * DAY);
  d.setUTCHours(6, 59, 0, 0);
  d.setTime(d.getTime() + DAY);
  return d.toISOString().replace('.000Z', 'Z');
}

function catalogFor(i: number): CatalogCourse {
  const base = CATALOG[i % CATALOG.length]!;
  if (i < CATALOG.length) return base;
  const n = Math.floor(i / CATALOG.length) + 1;
  return { ...base, code: `${base.code}-${n}`, title: `${base.title} (Section ${n})` };
}

/** Deterministic data for one student: demo defaults, or bulk data for benchmarks. */
export function createDemoData(options: DataOptions = {}): EmuData {
  const now = options.now ?? new Date();
  const rand = prng(options.seed ?? 7);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const ids = {
    group: 500,
    assignment: 9000,
    quiz: 3000,
    topic: 6000,
    module: 1500,
    item: 40000,
    file: 70000,
    page: 800,
  };
  const data: EmuData = {
    user: { id: 4242, name: 'Ada Lovelace', short_name: 'Ada', login_id: 'ada' },
    courses: [],
    assignmentGroups: [],
    assignments: [],
    quizzes: [],
    topics: [],
    modules: [],
    files: [],
    pages: [],
  };
  const termStart = new Date(now.getTime() - 35 * DAY).toISOString().slice(0, 10) + 'T07:00:00Z';
  const termEnd = new Date(now.getTime() + 70 * DAY).toISOString().slice(0, 10) + 'T07:00:00Z';

  const submission = (id: number, due: string | null, points: number | null): EmuSubmission => {
    const past = due !== null && Date.parse(due) < now.getTime();
    const r = rand();
    const base: EmuSubmission = {
      id,
      workflow_state: 'unsubmitted',
      submitted_at: null,
      graded_at: null,
      grade: null,
      score: null,
      attempt: null,
      late: false,
      missing: false,
      submission_type: null,
    };
    const submittedAt = due ? new Date(Date.parse(due) - Math.floor(rand() * 2 * DAY)).toISOString() : null;
    if (past && r < 0.65 && points !== null) {
      const score = Math.round(points * (0.7 + rand() * 0.3) * 2) / 2;
      return {
        ...base,
        workflow_state: 'graded',
        submitted_at: submittedAt,
        graded_at: due,
        grade: String(score),
        score,
        attempt: 1,
        submission_type: 'online_upload',
      };
    }
    if ((past && r < 0.85) || (!past && r < 0.2)) {
      return {
        ...base,
        workflow_state: 'submitted',
        submitted_at: submittedAt,
        attempt: 1,
        submission_type: 'online_upload',
      };
    }
    return { ...base, missing: past };
  };

  const addAssignment = (a: Omit<EmuAssignment, 'id' | 'submission' | 'created_at' | 'position'>): EmuAssignment => {
    const id = ++ids.assignment;
    const full: EmuAssignment = {
      ...a,
      id,
      position: data.assignments.filter((x) => x.assignment_group_id === a.assignment_group_id).length + 1,
      created_at: termStart,
      submission: submission(id * 7, a.due_at, a.grading_type === 'not_graded' ? null : a.points_possible),
    };
    data.assignments.push(full);
    return full;
  };

  const buildCourse = (cat: CatalogCourse, idx: number, enrollment: EmuCourse['enrollment']) => {
    const courseId = 1100 + idx;
    const course: EmuCourse = {
      id: courseId,
      name: `${cat.code} - ${cat.title}`,
      course_code: cat.code,
      enrollment,
      workflow_state: enrollment === 'completed' ? 'completed' : 'available',
      start_at: enrollment === 'completed' ? '2025-01-06T08:00:00Z' : termStart,
      end_at: enrollment === 'completed' ? '2025-03-22T07:00:00Z' : termEnd,
      time_zone: 'America/Los_Angeles',
      uuid: uuid(`course-${courseId}`),
      disabledTabs: [],
    };
    data.courses.push(course);
    if (enrollment === 'restricted') return;
    const shift = enrollment === 'completed' ? -300 : 0;
    const groups = ASSIGNMENT_GROUPS.map((g, i) => ({
      id: ++ids.group,
      course_id: courseId,
      name: g.name,
      position: i + 1,
      group_weight: g.weight,
    }));
    data.assignmentGroups.push(...groups);
    const group = (name: string) => groups.find((g) => g.name === name)!.id;
    const topic = (n: number) => cat.topics[n % cat.topics.length]!;

    const nAssign = options.assignmentsPerCourse ?? 6 + (idx % 3);
    for (let j = 0; j < nAssign; j++) {
      const undated = options.assignmentsPerCourse === undefined && j === nAssign - 1;
      const offset = shift - 21 + Math.round((j * 63) / Math.max(nAssign, 1)) + Math.floor(rand() * 5) - 2;
      const exam = options.assignmentsPerCourse === undefined && j === Math.floor(nAssign / 2);
      const kind = pick(ASSIGNMENT_KINDS);
      const points = exam ? 100 : pick([10, 20, 25, 50]);
      addAssignment({
        course_id: courseId,
        assignment_group_id: exam ? group('Exams') : group(kind === 'Project Milestone' ? 'Projects' : 'Homework'),
        name: undated
          ? 'Extra Credit: Course Feedback Survey'
          : exam
            ? 'Midterm Exam'
            : `${kind} ${j + 1}: ${topic(j)}`,
        description: `<p>Complete the ${kind.toLowerCase()} on ${topic(j)}. Show your work.</p>`,
        due_at: undated ? null : dueAt(now, offset),
        unlock_at: null,
        lock_at: null,
        points_possible: undated ? 0 : points,
        grading_type: undated ? 'pass_fail' : 'points',
        submission_types: exam ? ['on_paper'] : ['online_upload', 'online_text_entry'],
      });
    }

    const nQuiz = options.quizzesPerCourse ?? 3;
    for (let j = 0; j < nQuiz; j++) {
      const offset = shift - 10 + Math.round((j * 40) / Math.max(nQuiz, 1)) + Math.floor(rand() * 3);
      const practice = j % 3 === 1;
      const newQuiz = options.quizzesPerCourse === undefined && j === 2;
      const due = dueAt(now, offset);
      if (newQuiz) {
        addAssignment({
          course_id: courseId,
          assignment_group_id: group('Quizzes'),
          name: `Quiz ${j + 1}: ${topic(j + 2)} (New Quizzes)`,
          description: '',
          due_at: due,
          unlock_at: null,
          lock_at: null,
          points_possible: 10,
          grading_type: 'points',
          submission_types: ['external_tool'],
          is_quiz_lti_assignment: true,
        });
        continue;
      }
      const quizId = ++ids.quiz;
      const title = practice ? `Practice Quiz: ${topic(j + 1)}` : `Quiz ${j + 1}: ${topic(j + 1)}`;
      const assignment = practice
        ? null
        : addAssignment({
            course_id: courseId,
            assignment_group_id: group('Quizzes'),
            name: title,
            description: '',
            due_at: due,
            unlock_at: null,
            lock_at: null,
            points_possible: 10,
            grading_type: 'points',
            submission_types: ['online_quiz'],
            quiz_id: quizId,
          });
      data.quizzes.push({
        id: quizId,
        course_id: courseId,
        title,
        description: `<p>Covers ${topic(j + 1)}.</p>`,
        quiz_type: practice ? 'practice_quiz' : 'assignment',
        due_at: practice ? null : due,
        unlock_at: null,
        lock_at: null,
        points_possible: practice ? null : 10,
        time_limit: practice ? null : 20,
        question_count: 10,
        allowed_attempts: practice ? -1 : 1,
        assignment_id: assignment?.id ?? null,
        assignment_group_id: assignment ? group('Quizzes') : null,
      });
    }

    const nTopics = options.discussionsPerCourse ?? 2;
    for (let j = 0; j < nTopics; j++) {
      const topicId = ++ids.topic;
      const graded = j % 2 === 0;
      const due = dueAt(now, shift - 5 + Math.round((j * 30) / Math.max(nTopics, 1)));
      const title = graded ? `Discussion ${j + 1}: ${topic(j + 3)}` : `Weekly Reflection: ${topic(j + 3)}`;
      const assignment = graded
        ? addAssignment({
            course_id: courseId,
            assignment_group_id: group('Participation'),
            name: title,
            description: '',
            due_at: due,
            unlock_at: null,
            lock_at: null,
            points_possible: 5,
            grading_type: 'points',
            submission_types: ['discussion_topic'],
            discussion_topic_id: topicId,
          })
        : null;
      const t: EmuTopic = {
        id: topicId,
        course_id: courseId,
        title,
        message: `<p>Share your thoughts on ${topic(j + 3)} and reply to two classmates.</p>`,
        posted_at: termStart,
        todo_date: graded ? null : due,
        assignment_id: assignment?.id ?? null,
        is_announcement: false,
        position: j + 1,
        discussion_subentry_count: Math.floor(rand() * 30),
      };
      data.topics.push(t);
    }
    data.topics.push({
      id: ++ids.topic,
      course_id: courseId,
      title: 'Welcome to the course!',
      message: '<p>Office hours are on Tuesdays.</p>',
      posted_at: termStart,
      todo_date: null,
      assignment_id: null,
      is_announcement: true,
      position: 0,
      discussion_subentry_count: 0,
    });

    addFilesAndModules({ data, ids, options, cat, courseId, idx, termStart, topic });
  };

  const active = options.activeCourses ?? 12;
  for (let i = 0; i < active; i++) buildCourse(catalogFor(i), i, 'active');
  if (options.extraCourses !== false) {
    buildCourse(COMPLETED_COURSE, active, 'completed');
    buildCourse({ code: 'SCAND 40W', title: 'Heroic and Wonder Tales', topics: ['Sagas'] }, active + 1, 'restricted');
  }
  return data;
}
