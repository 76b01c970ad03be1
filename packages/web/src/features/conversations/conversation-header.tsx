import type { ReactNode } from 'react';
import { ActionIcon, Alert, Avatar, Group, Text } from '@mantine/core';
import { useMediaQuery, useNetwork } from '@mantine/hooks';
import { ArrowLeft, WifiOff } from 'lucide-react';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';

interface Props {
  title: string;
  subtitle?: string;
  picture?: string;
  /** At 768 px or less: a back button to the list. */
  onBack?: () => void;
  backLabel: string;
  actions?: ReactNode;
}

/** Top of a conversation: back button on narrow screens, picture, name, actions, and an offline notice. */
export function ConversationHeader({ title, subtitle, picture, onBack, backLabel, actions }: Props) {
  const isMobile = useMediaQuery(`(max-width: ${LIMITS.mobileBreakpointPx}px)`);
  const { online } = useNetwork();
  return (
    <>
      <Group
        px="md"
        py="sm"
        gap="sm"
        wrap="nowrap"
        justify="space-between"
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
          {isMobile && onBack && (
            <ActionIcon variant="subtle" size="lg" aria-label={backLabel} onClick={onBack}>
              <ArrowLeft size={20} aria-hidden />
            </ActionIcon>
          )}
          {picture !== undefined && <Avatar src={picture || null} alt="" radius="xl" />}
          <div style={{ minWidth: 0 }}>
            <Text component="h2" fw={700} size="lg" truncate>
              {title}
            </Text>
            {subtitle && (
              <Text size="xs" c="dimmed" truncate data-testid="conversation-subtitle">
                {subtitle}
              </Text>
            )}
          </div>
        </Group>
        {actions}
      </Group>
      {online === false && (
        <Alert color="yellow" radius={0} py={6} icon={<WifiOff size={16} aria-hidden />}>
          {MSG.chat.offline}
        </Alert>
      )}
    </>
  );
}
