import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { useDisconnectGoogle } from './calendar-api.ts';

/** Confirms disconnecting Google Calendar; exported events are not touched. */
export function DisconnectGoogleModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const disconnect = useDisconnectGoogle();
  const close = () => {
    disconnect.reset();
    onClose();
  };
  const confirm = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => {
        toast.success(MSG.calendar.disconnected);
        close();
      },
    });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={MSG.calendar.disconnectTitle}
      centered
      closeButtonProps={{ 'aria-label': MSG.calendar.close }}
    >
      <Stack>
        <Text size="sm">{MSG.calendar.disconnectBody}</Text>
        {disconnect.error && (
          <Alert color="red" role="alert">
            {disconnect.error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} data-autofocus>
            {MSG.calendar.cancel}
          </Button>
          <Button color="red" loading={disconnect.isPending} onClick={confirm}>
            {MSG.calendar.disconnectConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
