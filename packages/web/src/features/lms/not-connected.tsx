import { Alert, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { PlugZap } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { LmsSection } from './lms-section.tsx';

/** The Coursework page without a Canvas connection: what it would show, and the connect flow right here. */
export function NotConnected({ error }: { error?: string }) {
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="lg">
      <Stack gap="md">
        <ThemeIcon size={48} radius="xl" variant="light" aria-hidden>
          <PlugZap size={26} />
        </ThemeIcon>
        <Title order={2} size="h3">
          {MSG.coursework.notConnectedTitle}
        </Title>
        <Text>{MSG.coursework.notConnectedBody}</Text>
        {error ? (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        ) : (
          <LmsSection />
        )}
      </Stack>
    </Paper>
  );
}
