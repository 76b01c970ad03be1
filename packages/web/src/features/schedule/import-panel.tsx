import { useState } from 'react';
import { Alert, Badge, Button, FileButton, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, Link2, Trash2 } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { SCHEDULE_LIMITS, type ImportResult, type MySchedule } from '@studybuddy/shared/schedule';
import { ApiRequestError } from '../../lib/api.ts';
import { toast } from '../../ui/toast.ts';
import { scheduleApi, scheduleKeys } from './schedule-api.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });

/** Importing busy times from an .ics file or address, and the imported blocks with their "free anyway" switch. */
export function ImportPanel({ schedule }: { schedule: MySchedule }) {
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const merge = (r: ImportResult | MySchedule) =>
    client.setQueryData<MySchedule>(scheduleKeys.mine, (old) => (old ? { ...old, ...r } : old));
  const onError = (err: unknown) => setError(err instanceof ApiRequestError ? err.message : MSG.schedule.saveFailed);
  const onImported = (r: ImportResult) => {
    setError(null);
    merge(r);
    toast.success(MSG.schedule.imported(r.import.events));
  };
  const fromFile = useMutation({
    mutationFn: async (file: File) => {
      // The same cap as the server's, said before 2 MB travel.
      if (file.size > SCHEDULE_LIMITS.icsMaxBytes) throw new ApiRequestError(413, 'too_large', MSG.schedule.tooLarge);
      return scheduleApi.importFile(file.name, await file.text());
    },
    onSuccess: onImported,
    onError,
  });
  const fromUrl = useMutation({ mutationFn: scheduleApi.importUrl, onSuccess: onImported, onError });
  const remove = useMutation({ mutationFn: scheduleApi.removeImport, onSuccess: merge, onError });
  const override = useMutation({
    mutationFn: async ({ keys, free }: { keys: string[]; free: boolean }) => {
      let last: MySchedule | undefined;
      for (const key of keys) last = await scheduleApi.override(key, free);
      return last!;
    },
    onSuccess: merge,
    onError,
  });
  const busy = fromFile.isPending || fromUrl.isPending;
  const imp = schedule.import;

  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {MSG.schedule.importTitle}
        </Title>
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        {imp.kind !== 'none' && (
          <Group justify="space-between" wrap="wrap">
            <Text size="sm">{MSG.schedule.importedFrom(imp.source)}</Text>
            <Button
              variant="subtle"
              color="red"
              size="xs"
              leftSection={<Trash2 size={14} />}
              loading={remove.isPending}
              onClick={() => remove.mutate()}
            >
              {MSG.schedule.importRemove}
            </Button>
          </Group>
        )}
        {imp.lastError && (
          <Alert color="yellow" role="status">
            {MSG.schedule.lastError(imp.lastError)}
          </Alert>
        )}
        <Group wrap="wrap" align="flex-end">
          <FileButton onChange={(f) => f && fromFile.mutate(f)} accept=".ics,text/calendar">
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<CalendarPlus size={16} />}
                loading={fromFile.isPending}
                disabled={busy}
              >
                {MSG.schedule.importFile}
              </Button>
            )}
          </FileButton>
        </Group>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            fromUrl.mutate(url);
          }}
        >
          <Group wrap="wrap" align="flex-end">
            <TextInput
              label={MSG.schedule.importUrl}
              type="url"
              placeholder="https://"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              style={{ flex: '1 1 16rem' }}
            />
            <Button
              type="submit"
              variant="light"
              leftSection={<Link2 size={16} />}
              loading={fromUrl.isPending}
              disabled={busy || !url.trim()}
            >
              {MSG.schedule.importUrlButton}
            </Button>
          </Group>
        </form>
        <Title order={3} size="h5">
          {MSG.schedule.busyBlocks}
        </Title>
        {schedule.busy.length === 0 ? (
          <Text size="sm" c="dimmed">
            {MSG.schedule.noBusy}
          </Text>
        ) : (
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {schedule.busy.map((b) => (
              <Group key={b.key} component="li" justify="space-between" wrap="wrap" gap="xs">
                <Text size="sm" td={b.overridden ? 'line-through' : undefined}>
                  {when(b.start)}–
                  {new Date(b.end).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })} · {b.title}
                </Text>
                <Group gap={6}>
                  {b.overridden && <Badge variant="light">{MSG.schedule.overridden}</Badge>}
                  <Button
                    size="compact-xs"
                    variant="default"
                    onClick={() =>
                      override.mutate(
                        b.overridden ? { keys: [b.key, b.seriesKey], free: false } : { keys: [b.key], free: true },
                      )
                    }
                  >
                    {b.overridden ? MSG.schedule.markBusy : MSG.schedule.markFree}
                  </Button>
                  {!b.overridden && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => override.mutate({ keys: [b.seriesKey], free: true })}
                    >
                      {MSG.schedule.markSeriesFree}
                    </Button>
                  )}
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
