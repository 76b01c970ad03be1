import { useState } from 'react';
import { Button, Group, Modal, Stack } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupDetail } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { FriendPicker } from './friend-picker.tsx';
import { groupKeys, groupsApi } from './groups-api.ts';

/** Add Members (requirements §2, §6): the adder's friends not yet in the group; at least one selection. */
export function AddMembersModal({
  group,
  opened,
  onClose,
}: {
  group: GroupDetail;
  opened: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const friends = useQuery({ queryKey: groupKeys.friends, queryFn: groupsApi.friends, enabled: opened });
  const [selected, setSelected] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const inGroup = new Set(group.members.map((m) => m.id));
  const candidates = (friends.data?.friends ?? []).filter((f) => !inGroup.has(f.id));

  const close = () => {
    setSelected([]);
    setError(null);
    onClose();
  };
  const add = useMutation({
    mutationFn: () => groupsApi.addMembers(group.id, { memberIds: selected }),
    onSuccess: (updated) => {
      client.setQueryData(groupKeys.detail(group.id), updated);
      void client.invalidateQueries({ queryKey: groupKeys.lists });
      toast.success(MSG.groups.added);
      close();
    },
    onError: (err) => toast.error(MSG.groups.addFailed(err.message)),
  });

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={MSG.groups.addMembers}
      centered
      closeButtonProps={{ 'aria-label': MSG.groups.close }}
    >
      <Stack>
        <FriendPicker
          label={MSG.groups.selectFriends}
          friends={candidates}
          value={selected}
          onChange={(ids) => {
            setSelected(ids);
            setError(null);
          }}
          error={error}
          empty={friends.isPending ? MSG.loading.loading : MSG.groups.noFriendsToAdd}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {MSG.groups.cancel}
          </Button>
          <Button
            loading={add.isPending}
            onClick={() => (selected.length ? add.mutate() : setError(MSG.groups.selectFriend))}
          >
            {MSG.groups.add}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
