import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';
import { Guard, PublicOnly, PublicPage } from './guard.tsx';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

// Every screen is its own chunk.
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const SignupPage = lazy(() => import('../features/auth/signup-page.tsx'));
const VerifyPage = lazy(() => import('../features/auth/verify-page.tsx'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page.tsx'));
const TermsPage = lazy(() => import('../features/auth/terms-page.tsx'));
const PrivacyPage = lazy(() => import('../features/auth/privacy-page.tsx'));
const FeedbackPage = lazy(() => import('../features/feedback/feedback-page.tsx'));
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'));
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

/** The signed-in pages (the guard's), by address. */
const GUARDED = [
  [ROUTES.home, FriendsPage],
  [ROUTES.profile, ProfilePage],
  [ROUTES.matchmaking, MatchFinderPage],
  [ROUTES.friends, FriendsPage],
  [ROUTES.groups, GroupsPage],
  [ROUTES.assignments, CourseworkPage],
  [ROUTES.courses, CoursesPage],
  [ROUTES.flashcards, FlashcardsPage],
  [ROUTES.notifications, NotificationsPage],
  [ROUTES.schedule, SchedulePage],
  [ROUTES.feedback, FeedbackPage],
  [ROUTES.admin, AdminPage],
] as const;

/** Whether an address is one of the signed-in pages (the shell's Ctrl+K counts there from the first paint). */
export const isGuardedPath = (pathname: string): boolean => GUARDED.some(([path]) => path === pathname);

// Declarative routes: the data router (loaders, actions, fetchers) would add ~15 KB to every first load.
export function AppRouter() {
  return (
    <BrowserRouter>
      <RouteErrorBoundary>
        <Routes>
          <Route element={<PublicOnly />}>
            <Route path={ROUTES.login} element={<LoginPage />} />
            <Route path={ROUTES.signup} element={<SignupPage />} />
          </Route>
          <Route element={<PublicPage />}>
            <Route path={ROUTES.verify} element={<VerifyPage />} />
            <Route path={ROUTES.verifyEmail} element={<VerifyEmailPage />} />
            <Route path={ROUTES.resetPassword} element={<ResetPasswordPage />} />
            <Route path={ROUTES.terms} element={<TermsPage />} />
            <Route path={ROUTES.privacy} element={<PrivacyPage />} />
          </Route>
          <Route element={<Guard />}>
            {GUARDED.map(([path, Page]) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
            <Route path="/study-sessions/new" element={<NewStudySessionPage />} />
            <Route path="/study-sessions/:id" element={<StudySessionPage />} />
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
