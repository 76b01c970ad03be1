/** The parts of Canvas API objects the client reads (shared/canvas-api.md). Ids may be numbers or strings. */
export type CanvasId = number | string;

export interface CanvasCourse {
  id: CanvasId;
  name?: string;
  course_code?: string;
  workflow_state?: string;
  access_restricted_by_date?: boolean;
}

export interface CanvasSubmission {
  workflow_state?: string;
  submitted_at?: string | null;
  grade?: string | null;
  score?: number | null;
  excused?: boolean | null;
}

export interface CanvasAssignment {
  id: CanvasId;
  name: string;
  due_at?: string | null;
  points_possible?: number | null;
  grading_type?: string;
  html_url?: string;
  assignment_group_id?: CanvasId | null;
  quiz_id?: CanvasId;
  discussion_topic?: { id: CanvasId } | null;
  is_quiz_lti_assignment?: boolean;
  submission?: CanvasSubmission | CanvasSubmission[];
  published?: boolean;
}

export interface CanvasAssignmentGroup {
  id: CanvasId;
  name: string;
  /** With `include[]=assignments`. */
  assignments?: CanvasAssignment[];
}

export interface CanvasQuiz {
  id: CanvasId;
  title: string;
  due_at?: string | null;
  points_possible?: number | null;
  html_url?: string;
  assignment_id?: CanvasId | null;
  published?: boolean;
}

export interface CanvasTopic {
  id: CanvasId;
  title: string;
  html_url?: string;
  assignment_id?: CanvasId | null;
  assignment?: CanvasAssignment | null;
  todo_date?: string | null;
  is_announcement?: boolean;
  published?: boolean;
}

export interface CanvasModuleItem {
  id: CanvasId;
  title: string;
  type: string;
  html_url?: string;
  external_url?: string;
  content_id?: CanvasId;
  completion_requirement?: { type?: string; completed?: boolean };
  content_details?: { due_at?: string; points_possible?: number };
}

export interface CanvasModule {
  id: CanvasId;
  name: string;
  items_count?: number;
  items?: CanvasModuleItem[];
}

export interface CanvasFile {
  id: CanvasId;
  display_name: string;
  filename: string;
  'content-type'?: string;
  size?: number;
  url?: string;
  created_at?: string;
  updated_at?: string;
  locked_for_user?: boolean;
}
