import { lazy } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';
import { Guard, PublicOnly, PublicPage } from './guard.tsx';

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

const router = createBrowserRouter([
  {
    element: <PublicOnly />,
    children: [
      { path: ROUTES.login, element: <LoginPage /> },
      { path: ROUTES.signup, element: <SignupPage /> },
    ],
  },
  {
    element: <PublicPage />,
    children: [
      { path: ROUTES.verify, element: <VerifyPage /> },
      { path: ROUTES.verifyEmail, element: <VerifyEmailPage /> },
      { path: ROUTES.resetPassword, element: <ResetPasswordPage /> },
      { path: ROUTES.terms, element: <TermsPage /> },
      { path: ROUTES.privacy, element: <PrivacyPage /> },
    ],
  },
  {
    element: <Guard />,
    children: [
      { path: ROUTES.home, element: <FriendsPage /> },
      { path: ROUTES.profile, element: <ProfilePage /> },
      { path: ROUTES.matchmaking, element: <MatchFinderPage /> },
      { path: ROUTES.friends, element: <FriendsPage /> },
      { path: ROUTES.groups, element: <GroupsPage /> },
      { path: ROUTES.assignments, element: <CourseworkPage /> },
      { path: ROUTES.courses, element: <CoursesPage /> },
      { path: ROUTES.notifications, element: <NotificationsPage /> },
      { path: ROUTES.feedback, element: <FeedbackPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
