import { useState } from 'react';
import { Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { GROUP_LIMITS, type GroupDetail } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { FormActions, type ModalState } from '../../ui/form-actions.tsx';
import { toast } from '../../ui/toast.ts';
import { FriendPicker } from './friend-picker.tsx';
import { groupKeys, groupsApi } from './groups-api.ts';

/** Create Group (requirements §2, §5): a non-blank name and at least one friend. */
export function CreateGroupModal({ opened, onClose, onCreated }: ModalState & { onCreated: (g: GroupDetail) => void }) {
  const client = useQueryClient();
  const friends = useQuery({ queryKey: groupKeys.friends, queryFn: groupsApi.friends, enabled: opened });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [errors, setErrors] = useState<{ name?: string; friends?: string }>({});

  const reset = () => {
    setName('');
    setDescription('');
    setSelected([]);
    setErrors({});
  };
  const create = useMutation({
    mutationFn: () => groupsApi.create({ name: name.trim(), description: description.trim(), memberIds: selected }),
    onSuccess: (group) => {
      client.setQueryData(groupKeys.detail(group.id), group);
      void client.invalidateQueries({ queryKey: groupKeys.lists });
      toast.success(MSG.groups.created);
      reset();
      onCreated(group);
    },
    onError: () => toast.error(MSG.groups.createFailed),
  });

  const submit = () => {
    const next = {
      name: name.trim() ? undefined : MSG.groups.nameRequired,
      friends: selected.length ? undefined : MSG.groups.selectFriend,
    };
    setErrors(next);
    if (!next.name && !next.friends) create.mutate();
  };

  return (
    <Modal
      opened={opened}
      onClose={() => {
        reset();
        onClose();
      }}
      title={MSG.groups.createGroup}
      centered
      closeButtonProps={{ 'aria-label': MSG.groups.close }}
    >
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack>
          <TextInput
            label={MSG.groups.groupName}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
            errorProps={{ c: 'var(--mantine-color-error)' }}
            styles={{ input: { color: 'var(--mantine-color-text)' } }}
            maxLength={GROUP_LIMITS.nameMaxChars}
            required
            data-autofocus
          />
          <Textarea
            label={MSG.groups.description}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={GROUP_LIMITS.descriptionMaxChars}
            autosize
            minRows={2}
          />
          <FriendPicker
            label={MSG.groups.selectFriends}
            friends={friends.data?.friends ?? []}
            value={selected}
            onChange={setSelected}
            error={errors.friends}
            empty={friends.isPending ? MSG.loading.loading : MSG.groups.noFriends}
          />
          <FormActions
            cancelLabel={MSG.groups.cancel}
            onCancel={onClose}
            confirmLabel={MSG.groups.create}
            pending={create.isPending}
          />
        </Stack>
      </form>
    </Modal>
  );
}
