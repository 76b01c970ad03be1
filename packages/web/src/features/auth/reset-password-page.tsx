import { useState } from 'react';
import { Alert, Anchor, Group, Loader, PasswordInput, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { resetFormSchema } from '@studybuddy/shared/auth';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { AuthCard, AuthForm } from './auth-card.tsx';
import { authApi, errorText } from './auth-api.ts';
import { useRedirectAfter } from './use-redirect-after.ts';

/** /reset-password: the code is checked first, then the new-password form, then success and /login after 2 s. */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const code = params.get('oobCode') ?? '';
  const check = useQuery({
    queryKey: ['reset-check', code],
    queryFn: () => authApi.checkReset(code),
    enabled: !!code,
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [formError, setFormError] = useState<{ password?: string; confirm?: string }>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  useRedirectAfter(done, LIMITS.redirectShortMs, ROUTES.login);

  const onSubmit = async () => {
    setError(null);
    const parsed = resetFormSchema.safeParse({ password, confirm });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return setFormError({ [issue.path[0] === 'confirm' ? 'confirm' : 'password']: issue.message });
    }
    setFormError({});
    setBusy(true);
    try {
      await authApi.confirmReset(code, parsed.data.password);
      setDone(true);
    } catch (err) {
      // The server's refusals already read `{code}: {message}` (requirements §8).
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const backToLogin = (
    <Text size="sm" ta="center">
      <Anchor component={Link} to={ROUTES.login} underline="always">
        Back to log in
      </Anchor>
    </Text>
  );

  if (!code || check.isError) {
    return (
      <AuthCard title={MSG.reset.title}>
        <Alert color="red" icon={<CircleAlert size={18} aria-hidden />}>
          {!code ? MSG.reset.invalidCode : errorText(check.error)}
        </Alert>
        {backToLogin}
      </AuthCard>
    );
  }
  if (!check.data) {
    return (
      <AuthCard title={MSG.reset.title}>
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text>{MSG.reset.checking}</Text>
        </Group>
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard title={MSG.reset.title}>
        <Alert color="green" role="status" icon={<CircleCheck size={18} aria-hidden />}>
          {MSG.reset.success}
        </Alert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={MSG.reset.title}>
      <Text size="sm">
        Choose a new password for <strong>{check.data.email}</strong>.
      </Text>
      {error && (
        <Alert color="red" icon={<CircleAlert size={18} aria-hidden />}>
          {error}
        </Alert>
      )}
      <AuthForm onSubmit={onSubmit} submitLabel={MSG.reset.submit} busy={busy}>
        <PasswordInput
          label={MSG.reset.newPassword}
          description={`At least ${LIMITS.passwordMin} characters`}
          autoComplete="new-password"
          required
          withAsterisk={false}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={formError.password}
        />
        <PasswordInput
          label={MSG.reset.confirmPassword}
          autoComplete="new-password"
          required
          withAsterisk={false}
          value={confirm}
          onChange={(e) => setConfirm(e.currentTarget.value)}
          error={formError.confirm}
        />
      </AuthForm>
      {backToLogin}
    </AuthCard>
  );
}
