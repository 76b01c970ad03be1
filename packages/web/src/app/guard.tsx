import { lazy, Suspense, useEffect } from 'react';
import { Box } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { PUBLIC_MSG as MSG } from '@studybuddy/shared/messages/public';
import { ROUTES } from '@studybuddy/shared/routes';
import { isProfileComplete } from '@studybuddy/shared/session';
import { useSession, useSessionSync, type LoginState } from '../features/auth/index.ts';
import { LoadingScreen } from '../ui/loading-screen.tsx';
import { LoadingWrapper } from '../ui/loading-wrapper.tsx';
import { ApiRequestError } from '../lib/api.ts';
import { armSearchShortcut } from '../lib/search-shortcut.ts';
import { wantToasts } from '../ui/toasts-wanted.ts';

// The signed-in layout (navigation, badges, chat) is its own chunk: the log-in page never loads it.
const loadShell = () => import('./shell.tsx');
const Shell = lazy(() => loadShell().then((m) => ({ default: m.Shell })));
/**
 * A signed-in page, by its route's path: the table of their chunks comes with the shell (already on its way when a
 * guarded route shows), so the first load does not carry it.
 */
export const GuardedPage = lazy(() => loadShell().then((m) => ({ default: m.GuardedPage })));
// Shown when the app started from the service worker's cache but the server cannot be reached.
const OfflinePage = lazy(() => import('./pwa/offline-page.tsx'));

/**
 * Guarded routes (requirements §2): not signed in or not verified → /login (and back here after log-in); profile
 * incomplete → /profile, which is shown without the shell. The session is watched live (useSession), so
 * completing the profile, even in another tab, lifts the redirect without a reload.
 */
export function Guard() {
  const session = useSession();
  const location = useLocation();
  useSessionSync();
  // Fetched while the session loads, so the shell does not wait for it; the toasts too.
  void loadShell();
  useEffect(wantToasts, []);
  // Ctrl+K counts while the shell is shown or on its way; not on the way to /login nor on an incomplete profile.
  const shellAhead =
    session.isPending ||
    Boolean(session.data?.user?.emailVerified && session.data.profile && isProfileComplete(session.data.profile));
  useEffect(() => {
    armSearchShortcut(shellAhead);
    return () => armSearchShortcut(false);
  }, [shellAhead]);
  if (session.error instanceof ApiRequestError && session.error.status === 0 && !session.data) {
    return (
      <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
        <OfflinePage onRetry={() => void session.refetch()} />
      </Suspense>
    );
  }
  if (session.isPending || (session.error && !session.data)) {
    return <LoadingWrapper loading={session.isPending} error={session.error} message={MSG.loading.authenticating} />;
  }
  const { user, profile } = session.data;
  if (!user || !user.emailVerified) {
    const from = location.pathname + location.search;
    return <Navigate to={ROUTES.login} replace state={{ from } satisfies LoginState} />;
  }
  if (!profile || !isProfileComplete(profile)) {
    if (location.pathname !== ROUTES.profile) return <Navigate to={ROUTES.profile} replace />;
    return (
      <Box component="main" p="md" maw={900} mx="auto">
        <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
          <Outlet />
        </Suspense>
      </Box>
    );
  }
  return (
    <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
      {/* One shell per student: another student signing in on this browser starts afresh (shell.tsx). */}
      <Shell key={profile.uid} profile={profile} />
    </Suspense>
  );
}

/** /login and /signup: signed-in users go on to / (or where they were going). */
export function PublicOnly() {
  const session = useSession();
  const location = useLocation();
  useSessionSync();
  if (session.isPending) return <LoadingScreen message={MSG.loading.loading} />;
  if (session.data?.user?.emailVerified && session.data.profile) {
    const from = (location.state as LoginState | null)?.from;
    return <Navigate to={from ?? ROUTES.home} replace />;
  }
  return <PublicPage />;
}

/** Public pages (verification links, Terms, Privacy): no guard, their own loading state. */
export function PublicPage() {
  return (
    <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
      <Outlet />
    </Suspense>
  );
}
