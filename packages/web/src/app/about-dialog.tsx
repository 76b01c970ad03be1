import { Badge, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { APP_VERSION } from '@studybuddy/shared/version';

/** About StudyBuddy (the account menu): which release this is, for a support request or an upgrade check. */
export function AboutDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.about.title}
      size="sm"
      closeButtonProps={{ 'aria-label': MSG.about.close }}
    >
      <Stack gap="md">
        <Group gap="sm">
          <Text fw={800} size="xl" c="indigo">
            StudyBuddy
          </Text>
          <Badge variant="light" data-testid="app-version">
            {MSG.about.version(APP_VERSION)}
          </Badge>
        </Group>
        <Text size="sm">{MSG.about.body}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {MSG.about.close}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
