import { Button, Modal, Stack, Text } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';

/** Shown once when a new student opens an incomplete profile (requirements §2, §4). */
export function WelcomeModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.profile.welcomeTitle}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Text>{MSG.profile.welcomeBody}</Text>
        <Button onClick={onClose} style={{ alignSelf: 'flex-end' }}>
          {MSG.profile.welcomeButton}
        </Button>
      </Stack>
    </Modal>
  );
}
