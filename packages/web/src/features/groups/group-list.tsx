import { Avatar, NavLink, Stack, Text } from '@mantine/core';
import { Flame, Users } from 'lucide-react';
import type { GroupSummary } from '@studybuddy/shared/groups';
import { MSG } from '@studybuddy/shared/messages';
import { useBlockedIds } from '../blocks/index.ts';
import { UnreadBadge } from '../conversations/index.ts';

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
  const blocked = useBlockedIds();
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
              <Text span size="xs" c={g.id === selectedId ? 'white' : 'dimmed'} lineClamp={1}>
                {g.lastMessageSender && blocked.has(g.lastMessageSender)
                  ? MSG.block.folded
                  : g.lastMessage || MSG.groups.memberCount(g.memberCount)}
              </Text>
            }
            leftSection={
              <Avatar src={g.groupImage || null} alt="" radius="xl" color="indigo">
                {g.kind === 'hot' ? <Flame size={18} aria-hidden /> : <Users size={18} aria-hidden />}
              </Avatar>
            }
            rightSection={<UnreadBadge count={g.unread} />}
            onClick={() => onSelect(g.id)}
            style={{ borderRadius: 'var(--mantine-radius-md)' }}
          />
        </li>
      ))}
    </Stack>
  );
}
