import { Center, Loader, Stack, Text } from '@mantine/core';

/** Full-page loading state ('Loading...', 'Authenticating...'). */
export function LoadingScreen({ message }: { message: string }) {
  return (
    <Center h="100vh" role="status" aria-live="polite">
      <Stack align="center" gap="sm">
        <Loader />
        <Text c="dimmed">{message}</Text>
      </Stack>
    </Center>
  );
}
