import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, Title } from '@mantine/core';

/** The frame of the sign-up, log-in, verification and reset screens (no shell, full width on phones). */
export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Center component="main" mih="100vh" p="md" bg="var(--sb-surface-muted)">
      <Paper withBorder shadow="sm" radius="lg" p={{ base: 'lg', sm: 'xl' }} w="100%" maw={420}>
        <Stack gap="md">
          <div>
            <Text fw={800} size="lg" c="var(--sb-color-brand)">
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
