import { useState } from 'react';
import { Alert, Anchor, PasswordInput, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { signupInputSchema } from '@studybuddy/shared/auth';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import type { SessionInfo } from '@studybuddy/shared/session';
import { universityForEmail } from '@studybuddy/shared/universities';
import { ApiRequestError } from '../../lib/api.ts';
import { AuthCard, AuthForm } from './auth-card.tsx';
import { authApi, errorText } from './auth-api.ts';
import { SocialSignIn } from './social-sign-in.tsx';
import { useUniversities } from './universities-api.ts';
import { SESSION_KEY } from './use-session.ts';
import type { LoginState } from './use-redirect-after.ts';

type FieldErrors = { email?: string; password?: string };

export default function SignupPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const universities = useUniversities();

  const onSubmit = async () => {
    setError(null);
    const parsed = signupInputSchema.safeParse({ email, password });
    const next: FieldErrors = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof FieldErrors] ??= issue.message;
    }
    // Quick feedback from the server's list (the server checks again: it alone decides).
    if (!next.email && universities && !universityForEmail(universities, email)) next.email = MSG.signup.invalidDomain;
    if (!parsed.success || next.email) return setFieldErrors(next);
    setFieldErrors({});
    setBusy(true);
    try {
      await authApi.signup(parsed.data.email, parsed.data.password);
      // Requirements §4: after sign-up the user is signed out and /login says the mail is on its way.
      queryClient.setQueryData<SessionInfo>(SESSION_KEY, { user: null, profile: null });
      await navigate(ROUTES.login, { replace: true, state: { notice: 'verificationSent' } satisfies LoginState });
    } catch (err) {
      // The server's list decided (one this page had not loaded): the same text, on the field.
      if (err instanceof ApiRequestError && err.code === 'invalid_domain') setFieldErrors({ email: err.message });
      else setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard title={MSG.signup.title}>
      <Text size="sm" c="dimmed">
        Use your university email to find study partners at your college.
      </Text>
      {error && (
        <Alert color="red" icon={<CircleAlert size={18} aria-hidden />}>
          {error}
        </Alert>
      )}
      <AuthForm onSubmit={onSubmit} submitLabel={MSG.signup.submit} busy={busy}>
        <TextInput
          label="University Email"
          type="email"
          autoComplete="email"
          placeholder={`you@${universities?.[0]?.domains.at(-1) ?? 'university.edu'}`}
          required
          withAsterisk={false}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={fieldErrors.email}
        />
        <PasswordInput
          label="Password"
          description={`At least ${LIMITS.passwordMin} characters`}
          autoComplete="new-password"
          required
          withAsterisk={false}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fieldErrors.password}
        />
      </AuthForm>
      <SocialSignIn mode="signup" />
      <Text size="xs" c="dimmed" ta="center">
        By signing up you agree to our{' '}
        <Anchor component={Link} to={ROUTES.terms} size="xs" underline="always">
          Terms
        </Anchor>{' '}
        and{' '}
        <Anchor component={Link} to={ROUTES.privacy} size="xs" underline="always">
          Privacy Policy
        </Anchor>
        .
      </Text>
      <Text size="sm" ta="center">
        Already have an account?{' '}
        <Anchor component={Link} to={ROUTES.login} underline="always">
          Log in
        </Anchor>
      </Text>
    </AuthCard>
  );
}
