import { useState } from 'react';
import { Alert, Badge, Button, Divider, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { KeyRound, LogOut, MonitorSmartphone } from 'lucide-react';
import { changePasswordFormSchema, describeUserAgent, type AccountSession } from '@studybuddy/shared/account';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { formatWhen } from '../../lib/date-format.ts';
import { useAccountSessions, useChangePassword, useSignOutOthers, useSignOutSession } from './account-api.ts';

/** The server's own text for a refusal it explains; a general one for anything else. */
const textOf = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError && err.status > 0 && err.status < 500 ? err.message : fallback;

/** Profile → Security: change the password, and the browsers signed in to the account (beyond the spec). */
export function SecuritySection() {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="security-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="security-title">
          {MSG.account.security}
        </Title>
        <ChangePasswordForm />
        <Divider />
        <SignedInBrowsers />
      </Stack>
    </Paper>
  );
}

type Field = 'currentPassword' | 'newPassword' | 'confirm';

function ChangePasswordForm() {
  const [values, setValues] = useState<Record<Field, string>>({ currentPassword: '', newPassword: '', confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [done, setDone] = useState(false);
  const change = useChangePassword();

  const set = (field: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((x) => ({ ...x, [field]: undefined }));
    setDone(false);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setDone(false);
    const parsed = changePasswordFormSchema.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    try {
      await change.mutateAsync({ currentPassword: values.currentPassword, newPassword: values.newPassword });
      setValues({ currentPassword: '', newPassword: '', confirm: '' });
      setErrors({});
      setDone(true);
    } catch (err) {
      const field = err instanceof ApiRequestError ? (err.field as Field | undefined) : undefined;
      if (field === 'currentPassword' || field === 'newPassword')
        setErrors({ [field]: err instanceof Error ? err.message : '' });
    }
  };
  const fieldError = change.error instanceof ApiRequestError && change.error.field ? null : change.error;

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-labelledby="change-password-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="change-password-title">
          {MSG.account.changePassword}
        </Title>
        <Text size="sm" c="dimmed">
          {MSG.account.changePasswordIntro}
        </Text>
        <PasswordInput
          label={MSG.account.currentPassword}
          autoComplete="current-password"
          value={values.currentPassword}
          onChange={set('currentPassword')}
          error={errors.currentPassword}
          maw={420}
        />
        <PasswordInput
          label={MSG.account.newPassword}
          autoComplete="new-password"
          value={values.newPassword}
          onChange={set('newPassword')}
          error={errors.newPassword}
          maw={420}
        />
        <PasswordInput
          label={MSG.account.confirmPassword}
          autoComplete="new-password"
          value={values.confirm}
          onChange={set('confirm')}
          error={errors.confirm}
          maw={420}
        />
        {fieldError && (
          <Alert color="red" role="alert">
            {textOf(fieldError, MSG.account.changeFailed)}
          </Alert>
        )}
        {done && (
          <Alert color="green" role="status">
            {MSG.account.passwordChanged}
          </Alert>
        )}
        <Button
          type="submit"
          leftSection={<KeyRound size={16} />}
          loading={change.isPending}
          style={{ alignSelf: 'flex-start' }}
        >
          {MSG.account.changePasswordSubmit}
        </Button>
      </Stack>
    </form>
  );
}

function SignedInBrowsers() {
  const sessions = useAccountSessions();
  const signOut = useSignOutSession();
  const signOutOthers = useSignOutOthers();
  const [result, setResult] = useState<string | null>(null);
  const list = sessions.data?.sessions ?? [];
  const others = list.filter((s) => !s.current).length;
  const failure = signOut.error ?? signOutOthers.error;

  const endOne = async (s: AccountSession) => {
    setResult(null);
    signOutOthers.reset();
    try {
      await signOut.mutateAsync(s.id);
      setResult(MSG.account.signedOutOne);
    } catch {
      // shown below
    }
  };
  const endOthers = async () => {
    setResult(null);
    signOut.reset();
    try {
      const { ended } = await signOutOthers.mutateAsync();
      setResult(MSG.account.signedOutOthers(ended));
    } catch {
      // shown below
    }
  };

  return (
    <Stack gap="sm" aria-labelledby="sessions-title" component="section">
      <Title order={3} size="h5" id="sessions-title">
        {MSG.account.sessions}
      </Title>
      <Text size="sm" c="dimmed">
        {MSG.account.sessionsIntro}
      </Text>
      {sessions.isError && (
        <Alert color="red" role="alert">
          {MSG.account.sessionsFailed}
        </Alert>
      )}
      <Stack
        gap="xs"
        component="ul"
        style={{ listStyle: 'none', padding: 0, margin: 0 }}
        aria-label={MSG.account.sessions}
      >
        {list.map((s) => {
          const name = describeUserAgent(s.userAgent) || MSG.account.unknownBrowser;
          return (
            <Paper key={s.id} component="li" withBorder p="sm" radius="md">
              <Group justify="space-between" wrap="wrap" gap="sm">
                <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                  <MonitorSmartphone size={20} aria-hidden style={{ flexShrink: 0 }} />
                  <Stack gap={2} style={{ minWidth: 0 }}>
                    <Group gap="xs">
                      <Text fw={600} size="sm">
                        {name}
                      </Text>
                      {s.current && (
                        <Badge size="sm" variant="light" color="indigo">
                          {MSG.account.thisBrowser}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {MSG.account.signedIn(formatWhen(s.createdAt))}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {MSG.account.lastSeen(formatWhen(s.lastSeenAt))}
                    </Text>
                  </Stack>
                </Group>
                {!s.current && (
                  <Button
                    size="xs"
                    variant="default"
                    leftSection={<LogOut size={14} />}
                    aria-label={MSG.account.signOutNamed(name)}
                    loading={signOut.isPending && signOut.variables === s.id}
                    onClick={() => void endOne(s)}
                  >
                    {MSG.account.signOut}
                  </Button>
                )}
              </Group>
            </Paper>
          );
        })}
      </Stack>
      {failure && (
        <Alert color="red" role="alert">
          {textOf(failure, MSG.account.signOutFailed)}
        </Alert>
      )}
      {result && (
        <Text size="sm" role="status">
          {result}
        </Text>
      )}
      <Button
        variant="outline"
        color="red"
        leftSection={<LogOut size={16} />}
        disabled={others === 0}
        loading={signOutOthers.isPending}
        onClick={() => void endOthers()}
        style={{ alignSelf: 'flex-start' }}
      >
        {MSG.account.signOutOthers}
      </Button>
    </Stack>
  );
}
