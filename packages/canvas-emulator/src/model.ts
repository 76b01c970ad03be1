/** The emulator's own records: what a Canvas instance knows about one student. Serializers turn them into API JSON. */

export type Resource =
  | 'courses'
  | 'assignment_groups'
  | 'assignments'
  | 'quizzes'
  | 'discussion_topics'
  | 'modules'
  | 'files'
  | 'pages'
  | 'users';

export interface EmuCourse {
  id: number;
  name: string;
  course_code: string;
  /** active: current student enrolment; completed: concluded course; restricted: every enrolment inactive by date. */
  enrollment: 'active' | 'completed' | 'restricted';
  workflow_state: 'available' | 'completed';
  start_at: string | null;
  end_at: string | null;
  time_zone: string;
  uuid: string;
  /** Course tabs hidden from students: their list endpoints answer 404 "That page has been disabled for this course". */
  disabledTabs: Resource[];
}

export interface EmuAssignmentGroup {
  id: number;
  course_id: number;
  name: string;
  position: number;
  group_weight: number;
}

export interface EmuSubmission {
  id: number;
  workflow_state: 'unsubmitted' | 'submitted' | 'graded' | 'pending_review';
  submitted_at: string | null;
  graded_at: string | null;
  grade: string | null;
  score: number | null;
  attempt: number | null;
  late: boolean;
  missing: boolean;
  submission_type: string | null;
}

export interface EmuAssignment {
  id: number;
  course_id: number;
  assignment_group_id: number;
  position: number;
  name: string;
  description: string;
  due_at: string | null;
  unlock_at: string | null;
  lock_at: string | null;
  points_possible: number | null;
  grading_type: 'points' | 'pass_fail' | 'percent' | 'letter_grade' | 'not_graded';
  submission_types: string[];
  created_at: string;
  quiz_id?: number;
  discussion_topic_id?: number;
  /** A New Quizzes (LTI) assignment: listed only here, never under /quizzes. */
  is_quiz_lti_assignment?: boolean;
  submission: EmuSubmission;
}

export interface EmuQuiz {
  id: number;
  course_id: number;
  title: string;
  description: string;
  quiz_type: 'practice_quiz' | 'assignment' | 'graded_survey' | 'survey';
  due_at: string | null;
  unlock_at: string | null;
  lock_at: string | null;
  points_possible: number | null;
  time_limit: number | null;
  question_count: number;
  allowed_attempts: number;
  assignment_id: number | null;
  assignment_group_id: number | null;
}

export interface EmuTopic {
  id: number;
  course_id: number;
  title: string;
  message: string;
  posted_at: string;
  todo_date: string | null;
  assignment_id: number | null;
  is_announcement: boolean;
  position: number;
  discussion_subentry_count: number;
}

export type EmuModuleItemType =
  | 'File'
  | 'Page'
  | 'Discussion'
  | 'Assignment'
  | 'Quiz'
  | 'SubHeader'
  | 'ExternalUrl'
  | 'ExternalTool';

export interface EmuModuleItem {
  id: number;
  module_id: number;
  position: number;
  title: string;
  indent: number;
  type: EmuModuleItemType;
  content_id?: number;
  page_url?: string;
  external_url?: string;
  completion_requirement?: { type: string; min_score?: number; completed?: boolean };
}

export interface EmuModule {
  id: number;
  course_id: number;
  name: string;
  position: number;
  unlock_at: string | null;
  items: EmuModuleItem[];
}

export interface EmuFile {
  id: number;
  course_id: number;
  folder_id: number;
  uuid: string;
  display_name: string;
  filename: string;
  content_type: string;
  created_at: string;
  updated_at: string;
  locked: boolean;
  content: Buffer;
}

export interface EmuPage {
  page_id: number;
  course_id: number;
  url: string;
  title: string;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface EmuData {
  user: { id: number; name: string; short_name: string; login_id: string };
  courses: EmuCourse[];
  assignmentGroups: EmuAssignmentGroup[];
  assignments: EmuAssignment[];
  quizzes: EmuQuiz[];
  topics: EmuTopic[];
  modules: EmuModule[];
  files: EmuFile[];
  pages: EmuPage[];
}
