import { useEffect, useState } from 'react';
import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pause, Play } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { clockText, timerElapsed, timerPhase, type RoomState } from '@studybuddy/shared/study-sessions';
import { toast } from '../../ui/toast.ts';
import { skewOf, studySessionKeys, studySessionsApi } from './study-sessions-api.ts';

const T = MSG.studySessions;

/** Re-renders every quarter second while `on`. */
function useTick(on: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!on) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [on]);
  return now;
}

/**
 * The group's one timer, computed from the server's state (start instant and banked time) with this tab's clock
 * corrected by the server's: every tab shows the same time, whenever it opened.
 */
export function FocusTimer({ room, canDrive }: { room: RoomState; canDrive: boolean }) {
  const client = useQueryClient();
  // How far this tab's clock is behind the server's, measured when the state arrived.
  const skew = skewOf(room);
  const running = !!room.timer.runningSince;
  const now = useTick(running) + skew;
  const elapsed = timerElapsed(room.timer, running ? now : Date.parse(room.serverNow));
  const { phase, round, remainingMs } = timerPhase(elapsed, room.timer.focusMinutes, room.timer.breakMinutes);
  const started = running || room.timer.elapsedMs > 0;
  const drive = useMutation({
    mutationFn: (action: 'start' | 'pause') => studySessionsApi.timer(room.sessionId, action),
    onSuccess: (r) => client.setQueryData(studySessionKeys.room(r.sessionId), r),
    onError: (err) => toast.error(err.message),
  });
  const open = room.status === 'scheduled';
  return (
    <Paper withBorder radius="md" p="md" aria-labelledby="timer-title">
      <Stack gap="xs" align="center">
        <Title order={2} size="h4" id="timer-title">
          {T.timerLabel}
        </Title>
        <Group gap="xs">
          <Badge color={phase === 'focus' ? 'blue' : 'green'} variant="light">
            {phase === 'focus' ? T.focus : T.break}
          </Badge>
          <Text size="sm" c="dimmed">
            {T.round(round)}
          </Text>
          {!running && (
            <Text size="sm" c="dimmed">
              {started ? T.paused : T.notStarted}
            </Text>
          )}
        </Group>
        <Text
          component="output"
          aria-live="off"
          data-testid="timer-clock"
          data-remaining-ms={Math.round(remainingMs)}
          data-elapsed-ms={Math.round(elapsed)}
          fz={56}
          fw={700}
          ff="monospace"
          lh={1}
        >
          {clockText(remainingMs)}
        </Text>
        {open &&
          (canDrive ? (
            running ? (
              <Button
                leftSection={<Pause size={16} aria-hidden />}
                onClick={() => drive.mutate('pause')}
                loading={drive.isPending}
              >
                {T.pause}
              </Button>
            ) : (
              <Button
                leftSection={<Play size={16} aria-hidden />}
                onClick={() => drive.mutate('start')}
                loading={drive.isPending}
              >
                {started ? T.resume : T.start}
              </Button>
            )
          ) : (
            <Text size="xs" c="dimmed" ta="center">
              {T.onlyCreatorTimer}
            </Text>
          ))}
      </Stack>
    </Paper>
  );
}
