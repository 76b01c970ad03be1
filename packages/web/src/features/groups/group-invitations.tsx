import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { STUDY_GROUPS_MSG } from '@studybuddy/shared/messages/study-groups';
import { useRealtimeEvent } from '../../lib/realtime.ts';
import { groupKeys } from './groups-api.ts';
import { studyGroupKeys, studyGroupsApi } from './study-groups-api.ts';

const M = STUDY_GROUPS_MSG.studyGroups;

/** Open invitations to groups (issue 27 part 5), each accepted (joins, opens it) or declined. */
export function GroupInvitations({ onJoined }: { onJoined: (groupId: string) => void }) {
  const client = useQueryClient();
  const list = useQuery({ queryKey: studyGroupKeys.invitations, queryFn: studyGroupsApi.invitations });
  useRealtimeEvent('group.changed', (e) => {
    if (e.change === 'invited' || e.change === 'joined')
      void client.invalidateQueries({ queryKey: studyGroupKeys.invitations });
  });
  const answer = useMutation({
    mutationFn: ({ groupId, accept }: { groupId: string; accept: boolean }) =>
      accept ? studyGroupsApi.accept(groupId) : studyGroupsApi.decline(groupId),
    onSettled: () => void client.invalidateQueries({ queryKey: studyGroupKeys.invitations }),
    onSuccess: (_r, { groupId, accept }) => {
      if (!accept) return;
      void client.invalidateQueries({ queryKey: groupKeys.lists });
      onJoined(groupId);
    },
  });
  const invitations = list.data?.invitations ?? [];
  if (!invitations.length) return null;
  return (
    <Stack gap="xs" mb="sm" component="section" aria-label={M.invitations}>
      <Text fw={600} size="sm">
        {M.invitations}
      </Text>
      {invitations.map((i) => (
        <Paper key={i.groupId} withBorder p="sm" radius="md">
          <Text size="sm" fw={600}>
            {i.groupName}
          </Text>
          <Text size="sm" c="dimmed">
            {M.invitationFrom(i.invitedBy.name, i.course)}
          </Text>
          <Group gap="xs" mt="xs" justify="flex-end">
            <Button
              size="xs"
              variant="default"
              disabled={answer.isPending}
              onClick={() => answer.mutate({ groupId: i.groupId, accept: false })}
            >
              {M.decline}
            </Button>
            <Button
              size="xs"
              loading={answer.isPending && answer.variables?.groupId === i.groupId && answer.variables.accept}
              onClick={() => answer.mutate({ groupId: i.groupId, accept: true })}
            >
              {M.accept}
            </Button>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
