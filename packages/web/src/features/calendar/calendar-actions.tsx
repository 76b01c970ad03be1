import { Button, Group } from '@mantine/core';
import { CalendarPlus, Download, Rss } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import type { CalendarExport } from './use-calendar-export.ts';

/** The Coursework header's calendar buttons: Google (when the server has it), .ics, and the subscription feed. */
export function CalendarActions({ calendar, disabled }: { calendar: CalendarExport; disabled: boolean }) {
  return (
    <Group gap="xs">
      {calendar.googleConfigured && (
        <Button
          variant="light"
          leftSection={<CalendarPlus size={16} aria-hidden />}
          onClick={() => void calendar.connectGoogle()}
          loading={calendar.connecting}
          disabled={disabled}
        >
          {MSG.calendar.connect}
        </Button>
      )}
      <Button
        variant="default"
        leftSection={<Download size={16} aria-hidden />}
        onClick={calendar.startIcs}
        disabled={disabled}
      >
        {MSG.calendar.icsExport}
      </Button>
      <Button variant="default" leftSection={<Rss size={16} aria-hidden />} onClick={calendar.openFeed}>
        {MSG.calendar.feedButton}
      </Button>
    </Group>
  );
}
