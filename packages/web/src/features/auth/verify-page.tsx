import { Alert, Text } from '@mantine/core';
import { CircleAlert } from 'lucide-react';
import { Navigate, useSearchParams } from 'react-router';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { AuthCard } from './auth-card.tsx';
import { useRedirectAfter } from './use-redirect-after.ts';

const TARGETS: Record<string, string> = { verifyEmail: ROUTES.verifyEmail, resetPassword: ROUTES.resetPassword };

/** /verify: the target of mailed links; sends mode verifyEmail and resetPassword on with their oobCode. */
export default function VerifyPage() {
  const [params] = useSearchParams();
  const mode = params.get('mode') ?? '';
  const code = params.get('oobCode');
  const target = code && Object.hasOwn(TARGETS, mode) ? TARGETS[mode] : undefined;
  useRedirectAfter(!target, LIMITS.redirectLongMs, ROUTES.login);
  if (target) return <Navigate to={`${target}?${new URLSearchParams({ oobCode: code! })}`} replace />;
  return (
    <AuthCard title="Verification">
      <Alert color="red" icon={<CircleAlert size={18} aria-hidden />}>
        {MSG.verify.invalidLink}
      </Alert>
      <Text size="sm" c="dimmed" role="status">
        {MSG.verify.redirecting}
      </Text>
    </AuthCard>
  );
}
