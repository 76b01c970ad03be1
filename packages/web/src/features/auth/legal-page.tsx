import type { ReactNode } from 'react';
import { Anchor, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { ROUTES } from '@studybuddy/shared/routes';

/** The frame of the Terms and Privacy Policy pages (public, readable without an account). */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  return (
    <Container component="main" size="sm" py="xl" px="md">
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }}>
        <Stack gap="md">
          <Anchor component={Link} to={ROUTES.signup} size="sm">
            <Group gap={4}>
              <ArrowLeft size={16} aria-hidden />
              Back to sign up
            </Group>
          </Anchor>
          <div>
            <Text fw={800} size="lg" c="var(--sb-color-brand)">
              StudyBuddy
            </Text>
            <Title order={1} size="h2">
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              Last updated {updated}
            </Text>
          </div>
          {children}
        </Stack>
      </Paper>
    </Container>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs" component="section">
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}
