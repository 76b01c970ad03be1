import { Anchor, Group, Paper, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { MSG } from '@studybuddy/shared/messages';
import { studySessionPath } from '@studybuddy/shared/study-sessions';
import { RsvpControl, SessionFacts, StatusBadge } from './session-view.tsx';
import { studySessionKeys, studySessionsApi } from './study-sessions-api.ts';

const T = MSG.studySessions;

/**
 * A study session as a card in its conversation (the planner's message links to it): the session as it is now —
 * a change or a cancellation shows on the old card too — with Going / Maybe / Can't and a link to its room.
 */
export function SessionCard({ id }: { id: string }) {
  const session = useQuery({
    queryKey: studySessionKeys.one(id),
    queryFn: () => studySessionsApi.get(id),
    retry: false,
  });
  if (!session.data) return null;
  const s = session.data;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      mt={6}
      data-testid="session-card"
      aria-label={T.cardLabel(s.title)}
      role="group"
    >
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm">
            {s.title}
          </Text>
          <StatusBadge session={s} />
        </Group>
        <SessionFacts session={s} />
        <RsvpControl session={s} />
        <Anchor component={Link} to={studySessionPath(s.id)} size="sm">
          {s.status === 'scheduled' ? T.openRoom : T.open}
        </Anchor>
      </Stack>
    </Paper>
  );
}
