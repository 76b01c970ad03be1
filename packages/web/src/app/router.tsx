import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';
import { Guard, GuardedPage, PublicOnly, PublicPage } from './guard.tsx';
import { GUARDED_PATHS, STUDY_SESSION_PATHS } from './guarded-paths.ts';
import { RouteErrorBoundary } from './route-error-boundary.tsx';

// Every public screen is its own chunk; the signed-in ones are listed in the shell's chunk (guarded-pages.tsx).
const NotFoundPage = lazy(() => import('./not-found-page.tsx'));
const LoginPage = lazy(() => import('../features/auth/login-page.tsx'));
const SignupPage = lazy(() => import('../features/auth/signup-page.tsx'));
const VerifyPage = lazy(() => import('../features/auth/verify-page.tsx'));
const VerifyEmailPage = lazy(() => import('../features/auth/verify-email-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/auth/reset-password-page.tsx'));
const TermsPage = lazy(() => import('../features/auth/terms-page.tsx'));
const PrivacyPage = lazy(() => import('../features/auth/privacy-page.tsx'));

/** Whether an address is one of the signed-in pages (the shell's Ctrl+K counts there from the first paint). */
export const isGuardedPath = (pathname: string): boolean => GUARDED_PATHS.some((path) => path === pathname);

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
            {[...GUARDED_PATHS, ...STUDY_SESSION_PATHS].map((path) => (
              <Route key={path} path={path} element={<GuardedPage path={path} />} />
            ))}
          </Route>
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </RouteErrorBoundary>
    </BrowserRouter>
  );
}
