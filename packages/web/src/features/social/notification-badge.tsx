import { Badge, Box, Group, VisuallyHidden } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { useNotificationBadge } from './use-notification-badge.ts';

/** Sidebar badge of the Notifications link: pending count, plus a dot when any request is unviewed. */
export function NotificationBadge() {
  const { data } = useNotificationBadge();
  if (!data || data.pending === 0) return null;
  return (
    <Group
      gap={6}
      wrap="nowrap"
      data-testid="notifications-badge"
      data-pending={data.pending}
      data-unviewed={data.unviewed}
    >
      {data.unviewed && (
        <Box aria-hidden data-testid="notifications-dot" w={8} h={8} bg="red.7" style={{ borderRadius: '50%' }} />
      )}
      <Badge size="sm" variant="filled" circle={data.pending < 10} aria-hidden>
        {data.pending}
      </Badge>
      <VisuallyHidden>{MSG.notifications.badge(data.pending, data.unviewed)}</VisuallyHidden>
    </Group>
  );
}
