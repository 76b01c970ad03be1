import { Button, Group, Modal, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { conversationKeys } from '../conversations/index.ts';
import { groupKeys, groupsApi } from './groups-api.ts';

/** Leave (requirements §2, §4): asks first; leaving removes the membership and closes the chat. */
export function LeaveGroupModal({
  groupId,
  opened,
  onClose,
  onLeft,
}: {
  groupId: string;
  opened: boolean;
  onClose: () => void;
  onLeft: () => void;
}) {
  const client = useQueryClient();
  const leave = useMutation({
    mutationFn: () => groupsApi.leave(groupId),
    onSuccess: () => {
      client.removeQueries({ queryKey: groupKeys.detail(groupId) });
      client.removeQueries({ queryKey: conversationKeys.messages({ kind: 'group', id: groupId }) });
      void client.invalidateQueries({ queryKey: groupKeys.lists });
      toast.success(MSG.groups.left);
      onLeft();
    },
    onError: () => toast.error(MSG.groups.leaveFailed),
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.groups.leave}
      centered
      closeButtonProps={{ 'aria-label': MSG.groups.close }}
    >
      <Text>{MSG.groups.leaveConfirm}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {MSG.groups.cancel}
        </Button>
        <Button color="red" loading={leave.isPending} onClick={() => leave.mutate()}>
          {MSG.groups.leave}
        </Button>
      </Group>
    </Modal>
  );
}
