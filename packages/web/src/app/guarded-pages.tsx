import { lazy, type ComponentType } from 'react';
import { ROUTES } from '@studybuddy/shared/routes';
import type { GuardedPath } from './guarded-paths.ts';

// Every screen is its own chunk. The table is part of the shell's chunk (shell.tsx), not of the first load: the
// log-in page never needs the list of these chunks and their imports.
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'));
const FeedbackPage = lazy(() => import('../features/feedback/feedback-page.tsx'));
const MatchFinderPage = lazy(() => import('../features/social/match-finder-page.tsx'));
const NotificationsPage = lazy(() => import('../features/social/notifications-page.tsx'));
const FriendsPage = lazy(() => import('../features/social/friends-page.tsx'));
const GroupsPage = lazy(() => import('../features/groups/groups-page.tsx'));
const CourseworkPage = lazy(() => import('../features/lms/coursework-page.tsx'));
const CoursesPage = lazy(() => import('../features/documents/courses-page.tsx'));
const FlashcardsPage = lazy(() => import('../features/flashcards/flashcards-page.tsx'));
const AdminPage = lazy(() => import('../features/moderation/admin-page.tsx'));
const SchedulePage = lazy(() => import('../features/schedule/schedule-page.tsx'));
const StudySessionPage = lazy(() => import('../features/study-sessions/study-session-page.tsx'));
const NewStudySessionPage = lazy(() => import('../features/study-sessions/new-study-session-page.tsx'));

const PAGES: Record<GuardedPath, ComponentType> = {
  [ROUTES.home]: FriendsPage,
  [ROUTES.profile]: ProfilePage,
  [ROUTES.matchmaking]: MatchFinderPage,
  [ROUTES.friends]: FriendsPage,
  [ROUTES.groups]: GroupsPage,
  [ROUTES.assignments]: CourseworkPage,
  [ROUTES.courses]: CoursesPage,
  [ROUTES.flashcards]: FlashcardsPage,
  [ROUTES.notifications]: NotificationsPage,
  [ROUTES.schedule]: SchedulePage,
  [ROUTES.feedback]: FeedbackPage,
  [ROUTES.admin]: AdminPage,
  '/study-sessions/new': NewStudySessionPage,
  '/study-sessions/:id': StudySessionPage,
};

/** The signed-in page of a guarded route (router.tsx), by the route's path. */
export function GuardedPage({ path }: { path: GuardedPath }) {
  const Page = PAGES[path];
  return <Page />;
}
