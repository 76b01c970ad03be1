import { Avatar, Badge, NavLink, Stack, Text, VisuallyHidden } from '@mantine/core';
import { Flame, Users } from 'lucide-react';
import type { GroupSummary } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { formatUnread } from '../chat/use-unread.ts';

/** The groups of one kind with their last message and unread count. */
export function GroupList({
  groups,
  selectedId,
  onSelect,
  empty,
}: {
  groups: GroupSummary[];
  selectedId: string | null;
  onSelect: (id: string) => void;
  empty: string;
}) {
  if (!groups.length) {
    return (
      <Text size="sm" c="dimmed" px="xs">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap={2} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={MSG.groups.title}>
      {groups.map((g) => (
        <li key={g.id} data-testid="group-row">
          <NavLink
            component="button"
            active={g.id === selectedId}
            variant="filled"
            aria-current={g.id === selectedId ? 'true' : undefined}
            label={g.name}
            description={
              <Text span size="xs" c={g.id === selectedId ? 'white' : 'gray.7'} lineClamp={1}>
                {g.lastMessage || MSG.groups.memberCount(g.memberCount)}
              </Text>
            }
            leftSection={
              <Avatar src={g.groupImage || null} alt="" radius="xl" color="indigo">
                {g.kind === 'hot' ? <Flame size={18} aria-hidden /> : <Users size={18} aria-hidden />}
              </Avatar>
            }
            rightSection={
              g.unread > 0 ? (
                <Badge size="sm" color="red" variant="filled">
                  <span aria-hidden>{formatUnread(g.unread)}</span>
                  <VisuallyHidden>{MSG.chat.unreadBadge(g.unread)}</VisuallyHidden>
                </Badge>
              ) : undefined
            }
            onClick={() => onSelect(g.id)}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        </li>
      ))}
    </Stack>
  );
}
