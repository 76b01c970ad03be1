import type { FormEvent, ReactNode } from 'react';
import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';

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

/** The form of an auth screen: its fields, then the full-width submit button (`busy` while it is sent). */
export function AuthForm({
  onSubmit,
  submitLabel,
  busy,
  children,
}: {
  onSubmit: () => void | Promise<void>;
  submitLabel: string;
  busy: boolean;
  children: ReactNode;
}) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit();
  };
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        {children}
        <Button type="submit" fullWidth loading={busy}>
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
