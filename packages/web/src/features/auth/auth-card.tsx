import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';

/** The frame of the sign-up, log-in, verification and reset screens (no shell, full width on phones). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center component="main" mih="100vh" p="md" bg="gray.0">
      {/* Mantine's default error red is below AA contrast on white; a darker red for field errors here. */}
      <Paper
        withBorder
        shadow="sm"
        radius="lg"
        p={{ base: 'lg', sm: 'xl' }}
        w="100%"
        maw={420}
        style={{ '--mantine-color-error': 'var(--mantine-color-red-8)' } as React.CSSProperties}
      >
        <Stack gap="md">
          <div>
            <Text fw={800} size="lg" c="indigo.8">
              StudyBuddy
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
          </div>
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
