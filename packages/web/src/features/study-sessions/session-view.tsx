import { Badge, Group, SegmentedControl, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, MapPin, Video } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { RSVP_ANSWERS, type RsvpAnswer, type StudySession } from '@studybuddy/shared/study-sessions';
import { formatTime, formatWhen } from '../../lib/date-format.ts';
import { toast } from '../../ui/toast.ts';
import { studySessionKeys, studySessionsApi } from './study-sessions-api.ts';

const T = MSG.studySessions;
const ANSWER_LABEL: Record<RsvpAnswer, string> = { going: T.going, maybe: T.maybe, cant: T.cant };

/** "Tue 14:00–15:30" in the viewer's own zone (the instant is the same for everyone). */
export const whenText = (s: StudySession) => `${formatWhen(s.start)}–${formatTime(s.end)}`;

export function StatusBadge({ session }: { session: StudySession }) {
  if (session.status === 'cancelled') return <Badge color="red">{T.cancelledBadge}</Badge>;
  if (session.status === 'ended') return <Badge color="gray">{T.endedBadge}</Badge>;
  return null;
}

/** When and where, with the course and the answers so far. */
export function SessionFacts({ session }: { session: StudySession }) {
  const count = (a: RsvpAnswer) => session.rsvps.filter((r) => r.answer === a).length;
  return (
    <Stack gap={4}>
      <Group gap={6} wrap="nowrap">
        <CalendarClock size={16} aria-hidden />
        <Text size="sm" data-testid="session-when">
          {whenText(session)} · {T.length(session.minutes)}
        </Text>
      </Group>
      <Group gap={6} wrap="nowrap">
        {session.online ? <Video size={16} aria-hidden /> : <MapPin size={16} aria-hidden />}
        <Text size="sm">{session.online ? T.online : session.place}</Text>
      </Group>
      {session.course && (
        <Text size="sm" c="dimmed">
          {session.course}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {T.answers(count('going'), count('maybe'), count('cant'))}
      </Text>
    </Stack>
  );
}

/** Going / Maybe / Can't for the viewer; answered at once, every member's screens hear of it. */
export function RsvpControl({ session }: { session: StudySession }) {
  const client = useQueryClient();
  const answer = useMutation({
    mutationFn: (a: RsvpAnswer) => studySessionsApi.answer(session.id, a),
    onSuccess: (s) => {
      client.setQueryData(studySessionKeys.one(s.id), s);
      void client.invalidateQueries({ queryKey: studySessionKeys.of(s.conversation) });
    },
    onError: (err) => toast.error(err.message),
  });
  if (session.status !== 'scheduled') return null;
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed" id={`rsvp-${session.id}`}>
        {T.yourAnswer}
        {!session.myAnswer && (
          <VisuallyHidden>
            {': '}
            {T.noAnswer}
          </VisuallyHidden>
        )}
      </Text>
      <SegmentedControl
        aria-labelledby={`rsvp-${session.id}`}
        size="xs"
        value={session.myAnswer ?? ''}
        onChange={(a) => answer.mutate(a as RsvpAnswer)}
        disabled={answer.isPending}
        data={RSVP_ANSWERS.map((a) => ({ value: a, label: ANSWER_LABEL[a] }))}
      />
    </Stack>
  );
}

export { ANSWER_LABEL };
export const isCreator = (session: StudySession, me: string) => session.createdBy.id === me;
