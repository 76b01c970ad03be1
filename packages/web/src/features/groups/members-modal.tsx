import { Avatar, Badge, Group, Modal, Stack, Text } from '@mantine/core';
import type { GroupDetail } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import type { ModalState } from '../../ui/form-actions.tsx';
import { BlockButton, useBlockedIds } from '../blocks/index.ts';

/**
 * Group Members (requirements §2): everyone in the group; the creator shows an Admin badge. Any other member can be
 * blocked from here (issue 24); those the student blocked show as such.
 */
export function MembersModal({ group, me, opened, onClose }: ModalState & { group: GroupDetail; me: string }) {
  const blocked = useBlockedIds();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.groups.members}
      centered
      closeButtonProps={{ 'aria-label': MSG.groups.close }}
    >
      <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {group.members.map((m) => (
          <Group key={m.id} component="li" gap="sm" wrap="nowrap" data-testid="group-member">
            <Avatar src={m.profilePicture || null} alt="" radius="xl" />
            <Text fw={500} style={{ flex: 1 }}>
              {m.name}
            </Text>
            {m.isAdmin && (
              <Badge color="indigo" variant="light" tt="none">
                {MSG.groups.admin}
              </Badge>
            )}
            {m.id !== me &&
              (blocked.has(m.id) ? (
                <Badge color="gray" variant="light" tt="none">
                  {MSG.block.blockedBadge}
                </Badge>
              ) : (
                <BlockButton compact userId={m.id} name={m.name} />
              ))}
          </Group>
        ))}
      </Stack>
    </Modal>
  );
}
