import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import type { CalendarExport } from './use-calendar-export.ts';

/** Export mode (requirements §2): 'Select Assignments to Export', what is chosen, Cancel and Export. */
export function ExportBar({ calendar, selectedCount }: { calendar: CalendarExport; selectedCount: number }) {
  const target = calendar.target;
  if (!target) return null;
  const where = target.kind === 'google' ? target.calendar.summary : MSG.calendar.icsTarget;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      shadow="sm"
      pos="sticky"
      // Below the mobile app header when there is one.
      style={{ top: 'calc(var(--app-shell-header-offset, 0rem) + 8px)', zIndex: 20 }}
      role="region"
      aria-label={MSG.calendar.exportHeader}
    >
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <div>
            <Title order={2} size="h4">
              {MSG.calendar.exportHeader}
            </Title>
            <Text size="sm" c="dimmed">
              {MSG.calendar.exportTo(where)} · {MSG.calendar.selectedCount(selectedCount)}
            </Text>
          </div>
          <Group gap="xs">
            <Button variant="default" onClick={calendar.cancel} disabled={calendar.exporting}>
              {MSG.calendar.cancel}
            </Button>
            <Button
              onClick={() => void calendar.exportSelected()}
              loading={calendar.exporting}
              disabled={selectedCount === 0}
            >
              {MSG.calendar.export}
            </Button>
          </Group>
        </Group>
        {calendar.failed.length > 0 && (
          <Alert color="red" title={MSG.calendar.failure} role="alert">
            {MSG.calendar.failedItems(calendar.failed.join(', '))}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
