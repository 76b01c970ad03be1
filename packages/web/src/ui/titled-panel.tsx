import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title, type MantineSpacing, type PaperProps } from '@mantine/core';

/**
 * A bordered panel of a page: its heading (second level), an optional dimmed intro, then its content. `region` makes
 * it a section named by its heading.
 */
export function TitledPanel({
  title,
  intro,
  region,
  gap = 'sm',
  children,
  ...paper
}: PaperProps & { title: string; intro?: ReactNode; region?: boolean; gap?: MantineSpacing; children?: ReactNode }) {
  return (
    <Paper withBorder component={region ? 'section' : 'div'} aria-label={region ? title : undefined} {...paper}>
      <Stack gap={gap}>
        <Title order={2} size="h4">
          {title}
        </Title>
        {intro && (
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        )}
        {children}
      </Stack>
    </Paper>
  );
}
