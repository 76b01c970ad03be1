import { Alert, Button, Group, List, Modal, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { CircleAlert, ExternalLink, KeyRound, RotateCw, UserRound } from 'lucide-react';
import { useNavigate } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { ROUTES } from '@studybuddy/shared/routes';

interface ErrorProps {
  message: string;
  onRetry: () => void;
  retryDisabled: boolean;
}

function ErrorBody({ message, onRetry, retryDisabled }: ErrorProps) {
  return (
    <Stack gap="md">
      <Alert color="red" icon={<CircleAlert size={18} aria-hidden />} role="alert">
        {message}
      </Alert>
      <List type="ordered" spacing={4} size="sm">
        {MSG.coursework.errorSteps.map((step) => (
          <List.Item key={step}>{step}</List.Item>
        ))}
      </List>
      <Group>
        <Button leftSection={<RotateCw size={16} aria-hidden />} onClick={onRetry} disabled={retryDisabled}>
          {MSG.coursework.retry}
        </Button>
      </Group>
    </Stack>
  );
}

/** Nothing to show: the whole page is the error (requirements §8 'Error Updating Assignments'). */
export function CourseworkErrorPage(props: ErrorProps) {
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="lg">
      <Stack gap="md">
        <Group gap="sm">
          <ThemeIcon color="red" variant="light" size="lg" aria-hidden>
            <CircleAlert size={20} />
          </ThemeIcon>
          <Title order={2} size="h3">
            {MSG.coursework.errorTitle}
          </Title>
        </Group>
        <ErrorBody {...props} />
      </Stack>
    </Paper>
  );
}

/** Items are on screen: the same error over them, dismissible. */
export function CourseworkErrorOverlay(props: ErrorProps & { opened: boolean; onClose: () => void }) {
  const { opened, onClose, ...rest } = props;
  return (
    <Modal
      closeButtonProps={{ 'aria-label': MSG.lms.close }}
      opened={opened}
      onClose={onClose}
      title={MSG.coursework.errorTitle}
      centered
      size="lg"
    >
      <ErrorBody {...rest} />
    </Modal>
  );
}

/** The token is dead: seven steps to make a new one, Open Canvas Settings and Update Profile. */
export function TokenExpiredOverlay({
  opened,
  onClose,
  settingsUrl,
}: {
  opened: boolean;
  onClose: () => void;
  settingsUrl: string | null;
}) {
  const navigate = useNavigate();
  return (
    <Modal
      closeButtonProps={{ 'aria-label': MSG.lms.close }}
      opened={opened}
      onClose={onClose}
      centered
      size="lg"
      title={
        <Group gap="sm">
          <KeyRound size={20} aria-hidden />
          <Text fw={700} size="lg" component="span">
            {MSG.coursework.tokenExpiredTitle}
          </Text>
        </Group>
      }
    >
      <Stack gap="md">
        <Text size="sm">{MSG.coursework.tokenExpiredIntro}</Text>
        <List type="ordered" spacing={4} size="sm">
          {MSG.coursework.tokenExpiredSteps.map((step) => (
            <List.Item key={step}>{step}</List.Item>
          ))}
        </List>
        <Group justify="flex-end">
          {settingsUrl && (
            <Button
              component="a"
              href={settingsUrl}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              leftSection={<ExternalLink size={16} aria-hidden />}
            >
              {MSG.coursework.openSettings}
            </Button>
          )}
          <Button leftSection={<UserRound size={16} aria-hidden />} onClick={() => void navigate(ROUTES.profile)}>
            {MSG.coursework.updateProfile}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
