import { useState } from 'react';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { CircleAlert, MailCheck } from 'lucide-react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { SOCIAL_ERRORS, type SocialError } from '@studybuddy/shared/social-sign-in-errors';
import { PUBLIC_MSG as MSG } from '@studybuddy/shared/messages/public';
import { ROUTES } from '@studybuddy/shared/routes';
import { AuthCard, AuthForm } from './auth-card.tsx';
import { authApi, errorText, resendErrorText } from './auth-api.ts';
import { SocialSignIn } from './social-sign-in.tsx';
import { announceSessionChange, SESSION_KEY } from './use-session.ts';
import type { LoginState } from './use-redirect-after.ts';

const NOTICES = { verificationSent: MSG.login.verificationSent, verified: MSG.login.verified } as const;

export default function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const state = (location.state ?? {}) as LoginState;
  const socialError = params.get('error') as SocialError | null;

  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(
    socialError && Object.hasOwn(SOCIAL_ERRORS, socialError) ? SOCIAL_ERRORS[socialError] : null,
  );
  const [info, setInfo] = useState<string | null>(state.notice ? NOTICES[state.notice] : null);
  // After an unverified attempt: the server's short-lived resend ticket (kept in memory; never the password).
  const [ticket, setTicket] = useState<string | null>(null);
  const [busy, setBusy] = useState<'login' | 'resend' | 'reset' | null>(null);

  const run = async (what: NonNullable<typeof busy>, fn: () => Promise<void>) => {
    setBusy(what);
    try {
      await fn();
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = () => {
    setInfo(null);
    setTicket(null);
    void run('login', async () => {
      try {
        // The schema (and zod with it) loads on the first submit, not with the page.
        const { loginInputSchema } = await import('@studybuddy/shared/auth');
        const parsed = loginInputSchema.safeParse({ email, password });
        if (!parsed.success) return setError(parsed.error.issues[0]!.message);
        const result = await authApi.login(parsed.data.email, parsed.data.password);
        if (result.status === 'unverified') {
          setError(MSG.login.unverified);
          setTicket(result.resendTicket);
          return;
        }
        setError(null);
        announceSessionChange();
        await queryClient.invalidateQueries({ queryKey: SESSION_KEY });
        await navigate(state.from ?? ROUTES.home, { replace: true });
      } catch (err) {
        setError(errorText(err));
      }
    });
  };

  const onResend = () =>
    void run('resend', async () => {
      if (!ticket) return setError(MSG.resend.missingCredentials);
      try {
        const result = await authApi.resend(ticket);
        setError(null);
        setTicket(null);
        setInfo(result.sent ? MSG.login.verificationSent : MSG.resend.alreadyVerified);
      } catch (err) {
        setError(resendErrorText(err));
      }
    });

  const onForgot = () =>
    void run('reset', async () => {
      setInfo(null);
      setTicket(null);
      if (!email.trim()) return setError(MSG.reset.needEmail);
      try {
        const result = await authApi.requestReset(email);
        setError(null);
        setInfo(result.message);
      } catch (err) {
        setError(errorText(err));
      }
    });

  return (
    <AuthCard title={MSG.login.title}>
      {info && (
        <Alert color="green" role="status" icon={<MailCheck size={18} aria-hidden />}>
          {info}
        </Alert>
      )}
      {error && (
        <Alert color="red" icon={<CircleAlert size={18} aria-hidden />}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{error}</Text>
            {ticket && (
              <Button size="xs" variant="white" color="red" loading={busy === 'resend'} onClick={onResend}>
                {MSG.login.resendButton}
              </Button>
            )}
          </Stack>
        </Alert>
      )}
      <AuthForm onSubmit={onSubmit} submitLabel={MSG.login.submit} busy={busy === 'login'}>
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          withAsterisk={false}
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          withAsterisk={false}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Anchor component="button" type="button" size="sm" onClick={onForgot} disabled={busy !== null}>
            {MSG.login.forgotPassword}
          </Anchor>
        </Group>
      </AuthForm>
      <SocialSignIn mode="login" />
      <Text size="sm" ta="center">
        Don&apos;t have an account?{' '}
        <Anchor component={Link} to={ROUTES.signup} underline="always">
          Sign up
        </Anchor>
      </Text>
    </AuthCard>
  );
}
