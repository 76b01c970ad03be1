import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { SHELL_MSG } from '@studybuddy/shared/messages/shell';

/** The app's "not found", centred in `mih` of the height: for an unknown path, and for /admin to all but admins. */
export function NotFound({ mih }: { mih: string }) {
  return (
    <Center mih={mih} p="md">
      <Stack align="center" gap="md" ta="center">
        <Title order={1}>{SHELL_MSG.notFound.title}</Title>
        <Text c="dimmed">{SHELL_MSG.notFound.body}</Text>
        <Button component={Link} to="/">
          Go home
        </Button>
      </Stack>
    </Center>
  );
}
