import { useMemo, useState } from 'react';
import { Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { toast } from '../../ui/toast.ts';
import { ImportPanel } from './import-panel.tsx';
import { scheduleApi, scheduleKeys } from './schedule-api.ts';
import { browserTimeZone, CELLS_PER_WEEK, timeZones } from './week-labels.ts';
import { WeekGrid } from './week-grid.tsx';

/** "My week" (issue 27 part 1): the painted week in the student's zone, and their .ics import. */
export default function SchedulePage() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: scheduleKeys.mine, queryFn: scheduleApi.mine });
  // Edits are drafts over what the server has; saving clears them.
  const [draftCells, setCells] = useState<string | null>(null);
  const [draftZone, setTimeZone] = useState<string | null>(null);
  const cells = draftCells ?? query.data?.cells ?? '0'.repeat(CELLS_PER_WEEK);
  const timeZone = draftZone ?? (query.data?.saved ? query.data.timeZone : browserTimeZone());
  const zones = useMemo(() => timeZones(timeZone), [timeZone]);
  const save = useMutation({
    mutationFn: () => scheduleApi.saveWeek({ timeZone, cells }),
    onSuccess: (data) => {
      client.setQueryData(scheduleKeys.mine, data);
      setCells(null);
      setTimeZone(null);
      toast.success(MSG.schedule.saved);
    },
    onError: (err) => toast.error(err instanceof ApiRequestError ? err.message : MSG.schedule.saveFailed),
  });

  return (
    <Stack maw={760}>
      <PageHeader title={MSG.schedule.title} />
      <Text size="sm">{MSG.schedule.intro}</Text>
      <LoadingWrapper loading={query.isPending} error={query.error} message={MSG.schedule.loading}>
        <Paper withBorder p="md">
          <Stack>
            <Group wrap="wrap" align="flex-end" justify="space-between">
              <Select
                label={MSG.schedule.timeZone}
                data={zones}
                value={timeZone}
                onChange={(v) => {
                  if (!v) return;
                  setTimeZone(v);
                }}
                searchable
                allowDeselect={false}
                w={260}
              />
              <Group gap="xs">
                <Button
                  variant="default"
                  onClick={() => {
                    setCells('0'.repeat(CELLS_PER_WEEK));
                  }}
                >
                  {MSG.schedule.clear}
                </Button>
                <Button leftSection={<Save size={16} />} loading={save.isPending} onClick={() => save.mutate()}>
                  {MSG.schedule.save}
                </Button>
              </Group>
            </Group>
            <Group gap="md" aria-hidden>
              <Group gap={6}>
                <span
                  style={{ width: 14, height: 14, background: 'var(--mantine-color-teal-filled)', borderRadius: 2 }}
                />
                <Text size="xs">{MSG.schedule.free}</Text>
              </Group>
              <Group gap={6}>
                <span
                  style={{
                    width: 14,
                    height: 14,
                    border: '1px solid var(--mantine-color-default-border)',
                    borderRadius: 2,
                  }}
                />
                <Text size="xs">{MSG.schedule.busy}</Text>
              </Group>
            </Group>
            <WeekGrid cells={cells} onChange={setCells} />
          </Stack>
        </Paper>
        {query.data && <ImportPanel schedule={query.data} />}
      </LoadingWrapper>
    </Stack>
  );
}
