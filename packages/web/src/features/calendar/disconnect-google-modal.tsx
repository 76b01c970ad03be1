import { Text } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { ConfirmModal, type ModalState } from '../../ui/form-actions.tsx';
import { toast } from '../../ui/toast.ts';
import { useDisconnectGoogle } from './calendar-api.ts';

/** Confirms disconnecting Google Calendar; exported events are not touched. */
export function DisconnectGoogleModal({ opened, onClose }: ModalState) {
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
    <ConfirmModal
      opened={opened}
      onClose={close}
      title={MSG.calendar.disconnectTitle}
      closeLabel={MSG.calendar.close}
      error={disconnect.error?.message}
      cancelLabel={MSG.calendar.cancel}
      cancelAutofocus
      confirmLabel={MSG.calendar.disconnectConfirm}
      danger
      pending={disconnect.isPending}
      onConfirm={confirm}
    >
      <Text size="sm">{MSG.calendar.disconnectBody}</Text>
    </ConfirmModal>
  );
}
