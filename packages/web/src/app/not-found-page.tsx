import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';

export default function NotFoundPage() {
  return (
    <Center mih="80vh" p="md">
      <Stack align="center" gap="md" ta="center">
        <Title order={1}>{MSG.notFound.title}</Title>
        <Text c="dimmed">{MSG.notFound.body}</Text>
        <Button component={Link} to="/">
          Go home
        </Button>
      </Stack>
    </Center>
  );
}
