import { Avatar, Badge, Group, Modal, Stack, Text } from '@mantine/core';
import type { GroupDetail } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';

/** Group Members (requirements §2): everyone in the group; the creator shows an Admin badge. */
export function MembersModal({ group, opened, onClose }: { group: GroupDetail; opened: boolean; onClose: () => void }) {
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
          </Group>
        ))}
      </Stack>
    </Modal>
  );
}
