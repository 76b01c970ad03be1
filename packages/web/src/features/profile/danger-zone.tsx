import { useState } from 'react';
import { Button, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useNavigate } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';
import { ApiRequestError } from '../../lib/api.ts';
import { forgetStudentData } from '../../lib/student-data.ts';
import { ConfirmModal } from '../../ui/form-actions.tsx';
import { forgetDevice } from '../push/index.ts';
import { useDeleteAccount } from './profile-api.ts';

/** Account deletion (beyond the spec; the Privacy Policy promises it), confirmed with the password. */
export function DangerZone() {
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();
  const client = useQueryClient();
  const navigate = useNavigate();

  const close = () => {
    setOpened(false);
    setPassword('');
    remove.reset();
  };
  const submit = async () => {
    try {
      await remove.mutateAsync(password);
      // Nothing of the student stays in this browser: outbox, loaded conversations, last-user marker, push.
      forgetStudentData(client);
      await forgetDevice();
      await navigate(ROUTES.login, { replace: true });
    } catch {
      // shown below
    }
  };
  const message =
    remove.error instanceof ApiRequestError && remove.error.status > 0 && remove.error.status < 500
      ? remove.error.message
      : MSG.profile.deleteFailed;

  return (
    <Paper withBorder p="lg" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Stack gap="sm">
        <Title order={2} size="h4" c="var(--mantine-color-error)">
          {MSG.profile.dangerZone}
        </Title>
        <Text size="sm">{MSG.profile.deleteAccountIntro}</Text>
        <Button
          color="red"
          variant="outline"
          leftSection={<Trash2 size={16} />}
          onClick={() => setOpened(true)}
          style={{ alignSelf: 'flex-start' }}
        >
          {MSG.profile.deleteAccount}
        </Button>
      </Stack>
      <ConfirmModal
        opened={opened}
        onClose={close}
        title={MSG.profile.deleteAccount}
        closeLabel="Close"
        form
        onConfirm={() => void submit()}
        error={remove.isError && message}
        cancelLabel={MSG.profile.cancel}
        confirmLabel={MSG.profile.deleteConfirm}
        danger
        pending={remove.isPending}
      >
        <Text size="sm">{MSG.profile.deleteAccountIntro}</Text>
        <PasswordInput
          label={MSG.profile.deletePassword}
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          data-autofocus
        />
      </ConfirmModal>
    </Paper>
  );
}
