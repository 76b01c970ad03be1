import { useEffect, useState, type FormEvent } from 'react';
import { Button, Checkbox, Group, List, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MSG } from '@studybuddy/shared/messages';
import { STUDY_SESSION_LIMITS, type StudySession } from '@studybuddy/shared/study-sessions';
import { toast } from '../../ui/toast.ts';
import { FocusTimer } from './focus-timer.tsx';
import { isCreator } from './session-view.tsx';
import { studySessionKeys, studySessionsApi } from './study-sessions-api.ts';

const T = MSG.studySessions;

/**
 * The session's room: the timer, who is here now with their goals, and this student's own goal. The page reports
 * the student present on opening and every 15 s and says when they leave; the room's changes arrive live.
 */
export function StudyRoom({ session, me }: { session: StudySession; me: string }) {
  const client = useQueryClient();
  const id = session.id;
  const open = session.status === 'scheduled';
  const room = useQuery({ queryKey: studySessionKeys.room(id), queryFn: () => studySessionsApi.room(id) });
  const mine = room.data?.present.find((p) => p.userId === me);
  const [goal, setGoal] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    const report = () =>
      studySessionsApi
        .report(id, {})
        .then((r) => client.setQueryData(studySessionKeys.room(id), r))
        .catch(() => undefined);
    void report();
    const timer = setInterval(report, STUDY_SESSION_LIMITS.heartbeatSeconds * 1000);
    return () => {
      clearInterval(timer);
      void studySessionsApi.leave(id).catch(() => undefined);
    };
  }, [client, id, open]);

  const save = useMutation({
    mutationFn: (input: { goal?: string; done?: boolean }) => studySessionsApi.report(id, input),
    onSuccess: (r) => {
      client.setQueryData(studySessionKeys.room(id), r);
      setGoal(null);
    },
    onError: (err) => toast.error(err.message),
  });
  const end = useMutation({
    mutationFn: () => studySessionsApi.end(id),
    onSuccess: (r) => {
      client.setQueryData(studySessionKeys.room(id), r);
      void client.invalidateQueries({ queryKey: studySessionKeys.one(id) });
    },
    onError: (err) => toast.error(err.message),
  });

  if (!room.data) return null;
  const submitGoal = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({ goal: goal ?? mine?.goal ?? '' });
  };
  return (
    <Stack gap="md">
      <FocusTimer room={room.data} canDrive={isCreator(session, me)} />
      {session.status === 'ended' && <Text c="dimmed">{T.endedRoom}</Text>}
      <Paper withBorder radius="md" p="md">
        <Title order={2} size="h4" mb="xs">
          {T.present}
        </Title>
        {room.data.present.length === 0 ? (
          <Text size="sm" c="dimmed">
            {T.nobodyHere}
          </Text>
        ) : (
          <List listStyleType="none" spacing="xs" data-testid="present-list">
            {room.data.present.map((p) => (
              <List.Item key={p.userId}>
                <Group gap="xs" wrap="nowrap">
                  <div>
                    <Text size="sm" fw={500}>
                      {p.name}
                    </Text>
                    {p.goal && (
                      <Text size="xs" c="dimmed">
                        {p.done ? '✅ ' : ''}
                        {p.goal}
                      </Text>
                    )}
                  </div>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Paper>
      {open && (
        <Paper withBorder radius="md" p="md">
          <form onSubmit={submitGoal}>
            <Stack gap="xs">
              <TextInput
                label={T.yourGoal}
                placeholder={T.goalPlaceholder}
                maxLength={STUDY_SESSION_LIMITS.goalMax}
                value={goal ?? mine?.goal ?? ''}
                onChange={(e) => setGoal(e.currentTarget.value)}
              />
              <Group justify="space-between">
                <Checkbox
                  label={T.goalDone}
                  checked={mine?.done ?? false}
                  onChange={(e) => save.mutate({ done: e.currentTarget.checked })}
                />
                <Button type="submit" loading={save.isPending}>
                  {T.setGoal}
                </Button>
              </Group>
            </Stack>
          </form>
        </Paper>
      )}
      {open && isCreator(session, me) && (
        <Group justify="flex-end">
          <Button color="gray" variant="outline" onClick={() => end.mutate()} loading={end.isPending}>
            {T.endSession}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
