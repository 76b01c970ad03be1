import { lazy } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';
import { Guard, PublicOnly } from './guard.tsx';

// Every screen is its own chunk.
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const SignupPage = lazy(() => import('../features/auth/signup-page.tsx'));
const FeedbackPage = lazy(() => import('../features/feedback/feedback-page.tsx'));
const SectionPage = lazy(() => import('../features/placeholder/section-page.tsx'));

const section = (title: string) => <SectionPage title={title} />;

const router = createBrowserRouter([
  {
    element: <PublicOnly />,
    children: [
      { path: ROUTES.login, element: <LoginPage /> },
      { path: ROUTES.signup, element: <SignupPage /> },
    ],
  },
  {
    element: <Guard />,
    children: [
      { path: ROUTES.home, element: section('Friends') },
      { path: ROUTES.profile, element: section('Your Profile') },
      { path: ROUTES.matchmaking, element: section('BuddyFinder') },
      { path: ROUTES.friends, element: section('Friends') },
      { path: ROUTES.groups, element: section('Groups') },
      { path: ROUTES.assignments, element: section('Coursework') },
      { path: ROUTES.courses, element: section('Course Documents') },
      { path: ROUTES.notifications, element: section('Notifications') },
      { path: ROUTES.feedback, element: <FeedbackPage /> },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
]);

export function AppRouter() {
  return <RouterProvider router={router} />;
}
