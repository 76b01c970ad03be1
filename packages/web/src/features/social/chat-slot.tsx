import { Center, Stack, Text } from '@mantine/core';
import { MessageCircle } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';

/** The right pane of the friends screen while no friend is chosen. */
export function ChatSlot() {
  return (
    <Center h="100%" p="xl">
      <Stack align="center" gap="sm" ta="center" maw={360}>
        <MessageCircle size={40} aria-hidden color="var(--mantine-color-indigo-6)" />
        <Text fw={600}>{MSG.friends.selectFriend}</Text>
      </Stack>
    </Center>
  );
}
