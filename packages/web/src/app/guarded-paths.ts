import { ROUTES } from '@studybuddy/shared/routes';

/** The signed-in pages at a fixed address (the guard's); the shell's Ctrl+K counts there from the first paint. */
export const GUARDED_PATHS = [
  ROUTES.home,
  ROUTES.profile,
  ROUTES.matchmaking,
  ROUTES.friends,
  ROUTES.groups,
  ROUTES.assignments,
  ROUTES.courses,
  ROUTES.flashcards,
  ROUTES.notifications,
  ROUTES.schedule,
  ROUTES.feedback,
  ROUTES.admin,
] as const;

/** The study sessions' pages (the guard's too), by pattern. */
export const STUDY_SESSION_PATHS = ['/study-sessions/new', '/study-sessions/:id'] as const;

export type GuardedPath = (typeof GUARDED_PATHS)[number] | (typeof STUDY_SESSION_PATHS)[number];
