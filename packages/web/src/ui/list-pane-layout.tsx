import type { ReactNode } from 'react';
import { Box, Center, Paper, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { LucideIcon } from 'lucide-react';
import { LIMITS } from '@studybuddy/shared/limits';

interface Props {
  title: string;
  /** Above the list: a search field, a toggle, a create button. */
  controls?: ReactNode;
  /** The scrolling list. */
  list: ReactNode;
  /** The chosen item's pane, or null while nothing is chosen. */
  pane: ReactNode | null;
  /** Shown in the pane while nothing is chosen (wide screens only). */
  placeholder: ReactNode;
}

const LIST_WIDTH_PX = 320;
// The viewport below the shell's header, less the page padding.
const HEIGHT = 'calc(100dvh - var(--app-shell-header-offset, 0rem) - 2 * var(--mantine-spacing-md))';

/**
 * A list on the left and the chosen item on the right (friends and their chat, groups and theirs). At 768 px or
 * less one of the two fills the screen: the list, or the chosen item (which offers a way back).
 */
export function ListPaneLayout({ title, controls, list, pane, placeholder }: Props) {
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`);
  const chosen = pane !== null;
  return (
    <Box display="flex" h={HEIGHT} mih={420} style={{ gap: 'var(--mantine-spacing-md)' }}>
      {(!isMobile || !chosen) && (
        <Paper
          withBorder
          radius="lg"
          p="sm"
          w={isMobile ? '100%' : LIST_WIDTH_PX}
          style={{ display: 'flex', flexDirection: 'column', flexShrink: 0 }}
        >
          <Title order={1} size="h3" px="xs" pb="sm">
            {title}
          </Title>
          {controls}
          <ScrollArea style={{ flex: 1 }} type="auto">
            {list}
          </ScrollArea>
        </Paper>
      )}
      {(!isMobile || chosen) && (
        <Paper withBorder radius="lg" style={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
          <Box style={{ flex: 1, minHeight: 0 }}>{pane ?? placeholder}</Box>
        </Paper>
      )}
    </Box>
  );
}

/** The pane's content while nothing is chosen: an icon and what to do. */
export function PanePlaceholder({ icon: Icon, text }: { icon: LucideIcon; text: string }) {
  return (
    <Center h="100%" p="xl">
      <Stack align="center" gap="sm" ta="center" maw={360}>
        <Icon size={40} aria-hidden color="var(--mantine-color-indigo-6)" />
        <Text fw={600}>{text}</Text>
      </Stack>
    </Center>
  );
}
