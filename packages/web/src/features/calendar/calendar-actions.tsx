import { useState } from 'react';
import { Button, Group, Menu } from '@mantine/core';
import { CalendarPlus, ChevronDown, Download, Rss, Unlink } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { DisconnectGoogleModal } from './disconnect-google-modal.tsx';
import type { CalendarExport } from './use-calendar-export.ts';

/** The Coursework header's calendar buttons: Google (when the server has it), .ics, and the subscription feed. */
export function CalendarActions({ calendar, disabled }: { calendar: CalendarExport; disabled: boolean }) {
  const [disconnectOpen, setDisconnectOpen] = useState(false);
  const connect = (
    <Button
      variant="light"
      leftSection={<CalendarPlus size={16} aria-hidden />}
      onClick={() => void calendar.connectGoogle()}
      loading={calendar.connecting}
      disabled={disabled}
    >
      {MSG.calendar.connect}
    </Button>
  );

  return (
    <Group gap="xs">
      {calendar.googleConfigured &&
        (calendar.googleConnected ? (
          // Connected: a menu beside the button offers to disconnect.
          <Button.Group>
            {connect}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button
                  variant="light"
                  px={8}
                  aria-label={MSG.calendar.googleOptions}
                  disabled={disabled}
                  style={{ borderInlineStart: '1px solid var(--mantine-primary-color-2)' }}
                >
                  <ChevronDown size={16} aria-hidden />
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  color="red"
                  leftSection={<Unlink size={16} aria-hidden />}
                  onClick={() => setDisconnectOpen(true)}
                >
                  {MSG.calendar.disconnect}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Button.Group>
        ) : (
          connect
        ))}
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
      <DisconnectGoogleModal opened={disconnectOpen} onClose={() => setDisconnectOpen(false)} />
    </Group>
  );
}
