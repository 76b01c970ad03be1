import { Suspense } from 'react';
import { Box } from '@mantine/core';
import { Navigate, Outlet, useLocation } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { isProfileComplete } from '@studybuddy/shared/session';
import { useSession } from '../features/auth/use-session.ts';
import { LoadingScreen } from '../ui/loading-screen.tsx';
import { LoadingWrapper } from '../ui/loading-wrapper.tsx';
import { Shell } from './shell.tsx';

/** Guarded routes: signed-in and verified, then a complete profile (else /profile); the shell only with a complete profile. */
export function Guard() {
  const session = useSession();
  const location = useLocation();
  if (session.isPending || session.error) {
    return <LoadingWrapper loading={session.isPending} error={session.error} message={MSG.loading.authenticating} />;
  }
  const { user, profile } = session.data;
  if (!user || !profile) return <Navigate to={ROUTES.login} replace />;
  if (!isProfileComplete(profile)) {
    if (location.pathname !== ROUTES.profile) return <Navigate to={ROUTES.profile} replace />;
    return (
      <Box p="md" maw={900} mx="auto">
        <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
          <Outlet />
        </Suspense>
      </Box>
    );
  }
  return <Shell profile={profile} />;
}

/** Public auth pages: signed-in users go to /. */
export function PublicOnly() {
  const session = useSession();
  if (session.isPending) return <LoadingScreen message={MSG.loading.loading} />;
  if (session.data?.user && session.data.profile) return <Navigate to={ROUTES.home} replace />;
  return (
    <Suspense fallback={<LoadingScreen message={MSG.loading.loading} />}>
      <Outlet />
    </Suspense>
  );
}
