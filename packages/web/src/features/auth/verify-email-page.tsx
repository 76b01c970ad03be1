import { useEffect } from 'react';
import { Alert, Group, Loader, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import type { SessionInfo } from '@studybuddy/shared/session';
import { ApiRequestError } from '../../lib/api.ts';
import { AuthCard } from './auth-card.tsx';
import { authApi } from './auth-api.ts';
import { SESSION_KEY } from './use-session.ts';
import { useRedirectAfter, type LoginState } from './use-redirect-after.ts';

/** /verify-email: verifying, then success (signed out, /login after 2 s) or failure (/login after 3 s). */
export default function VerifyEmailPage() {
  const [params] = useSearchParams();
  const code = params.get('oobCode') ?? '';
  const queryClient = useQueryClient();
  // A query (not an effect with a POST) so a remount never spends the single-use code twice.
  const verification = useQuery({
    queryKey: ['verify-email', code],
    queryFn: () => authApi.verifyEmail(code),
    enabled: !!code,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
  const ok = verification.isSuccess;
  const failed = !code || verification.isError;

  useEffect(() => {
    if (ok) queryClient.setQueryData<SessionInfo>(SESSION_KEY, { user: null, profile: null });
  }, [ok, queryClient]);
  useRedirectAfter(ok, LIMITS.redirectShortMs, ROUTES.login, { notice: 'verified' } satisfies LoginState);
  useRedirectAfter(failed, LIMITS.redirectLongMs, ROUTES.login);

  const failure = !code
    ? MSG.verify.invalidLink
    : verification.error instanceof ApiRequestError && verification.error.status === 400
      ? MSG.verify.invalidOrExpired
      : MSG.verify.failed;

  return (
    <AuthCard title="Email verification">
      {ok ? (
        <Alert color="green" role="status" icon={<CircleCheck size={18} aria-hidden />}>
          {MSG.verify.success}
        </Alert>
      ) : failed ? (
        <>
          <Alert color="red" icon={<CircleAlert size={18} aria-hidden />}>
            {failure}
          </Alert>
          <Text size="sm" c="dimmed" role="status">
            {MSG.verify.redirecting}
          </Text>
        </>
      ) : (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{MSG.verify.verifying}</Text>
        </Group>
      )}
    </AuthCard>
  );
}
