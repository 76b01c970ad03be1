import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, NumberInput, Stack, Switch, Text, TextInput } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import {
  STUDY_SESSION_LIMITS,
  wallTimeIn,
  type StudySession,
  type StudySessionFields,
} from '@studybuddy/shared/study-sessions';
import { ApiRequestError } from '../../lib/api.ts';
import { browserZone } from './study-sessions-api.ts';

/** What a form starts from: a proposed slot (Find a time), a session being changed, or nothing. */
export interface SessionPrefill {
  /** ISO instant of the start. */
  start?: string;
  minutes?: number;
  title?: string;
}

const T = MSG.studySessions;

function initial(session?: StudySession, prefill?: SessionPrefill) {
  const zone = browserZone();
  const start = session?.start ?? prefill?.start;
  const wall = start ? wallTimeIn(start, zone) : '';
  return {
    title: session?.title ?? prefill?.title ?? '',
    course: session?.course ?? '',
    date: wall.slice(0, 10),
    time: wall.slice(11, 16),
    minutes: session?.minutes ?? prefill?.minutes ?? 60,
    online: session?.online ?? false,
    place: session?.place ?? '',
    reminderMinutes: session?.reminderMinutes ?? STUDY_SESSION_LIMITS.reminderDefault,
  };
}

/**
 * The fields of a study session. Times are entered in the student's own zone (the server stores the instant and
 * the zone). The server's refusal is shown under the field it names.
 */
export function SessionForm({
  session,
  prefill,
  submitLabel,
  onSubmit,
}: {
  session?: StudySession;
  prefill?: SessionPrefill;
  submitLabel: string;
  onSubmit: (fields: StudySessionFields) => Promise<unknown>;
}) {
  const [v, setV] = useState(() => initial(session, prefill));
  const [error, setError] = useState<{ field?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const zone = browserZone();
  const set = <K extends keyof typeof v>(key: K, value: (typeof v)[K]) => {
    setV((old) => ({ ...old, [key]: value }));
    setError(null);
  };
  const fieldError = (...names: string[]) => (error?.field && names.includes(error.field) ? error.message : undefined);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit({
        title: v.title,
        course: v.course,
        start: v.date && v.time ? `${v.date}T${v.time}` : '',
        timeZone: zone,
        minutes: Number(v.minutes),
        online: v.online,
        place: v.online ? '' : v.place,
        reminderMinutes: Number(v.reminderMinutes),
        ...(session ? { focusMinutes: session.focusMinutes, breakMinutes: session.breakMinutes } : {}),
      });
    } catch (err) {
      setError(
        err instanceof ApiRequestError
          ? { field: err.field?.split('.')[0], message: err.message }
          : { message: T.failed },
      );
    } finally {
      setBusy(false);
    }
  };

  const general = error && !fieldError('title', 'course', 'start', 'minutes', 'place', 'reminderMinutes');
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label={T.titleLabel}
          placeholder={T.titlePlaceholder}
          required
          maxLength={STUDY_SESSION_LIMITS.titleMax}
          value={v.title}
          onChange={(e) => set('title', e.currentTarget.value)}
          error={fieldError('title')}
        />
        <TextInput
          label={T.courseLabel}
          maxLength={STUDY_SESSION_LIMITS.courseMax}
          value={v.course}
          onChange={(e) => set('course', e.currentTarget.value)}
          error={fieldError('course')}
        />
        <Group grow align="flex-start">
          <TextInput
            type="date"
            label={T.dateLabel}
            required
            value={v.date}
            onChange={(e) => set('date', e.currentTarget.value)}
            error={fieldError('start')}
          />
          <TextInput
            type="time"
            label={T.timeLabel}
            required
            value={v.time}
            onChange={(e) => set('time', e.currentTarget.value)}
          />
        </Group>
        <Text size="xs" c="dimmed">
          {T.zoneNote(zone)}
        </Text>
        <Group grow align="flex-start">
          <NumberInput
            label={T.lengthLabel}
            min={STUDY_SESSION_LIMITS.minMinutes}
            max={STUDY_SESSION_LIMITS.maxMinutes}
            step={15}
            value={v.minutes}
            onChange={(n) => set('minutes', Number(n))}
            error={fieldError('minutes')}
          />
          <NumberInput
            label={T.reminderLabel}
            min={0}
            max={STUDY_SESSION_LIMITS.reminderMax}
            step={5}
            value={v.reminderMinutes}
            onChange={(n) => set('reminderMinutes', Number(n))}
            error={fieldError('reminderMinutes')}
          />
        </Group>
        <Switch label={T.onlineLabel} checked={v.online} onChange={(e) => set('online', e.currentTarget.checked)} />
        {!v.online && (
          <TextInput
            label={T.placeLabel}
            placeholder={T.placePlaceholder}
            maxLength={STUDY_SESSION_LIMITS.placeMax}
            value={v.place}
            onChange={(e) => set('place', e.currentTarget.value)}
            error={fieldError('place')}
          />
        )}
        {general && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
