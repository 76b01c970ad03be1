import { useState } from 'react';
import { Alert, Button, Group, Loader, Modal, Select, Stack } from '@mantine/core';
import type { GoogleCalendarEntry } from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { useGoogleCalendars } from './calendar-api.ts';

/** 'Select a Calendar': the user's Google calendars in a dropdown, then Done (requirements §2). */
export function SelectCalendarModal({
  opened,
  onClose,
  onChoose,
  onReconnect,
  preferredId,
}: {
  opened: boolean;
  onClose: () => void;
  onChoose: (calendar: GoogleCalendarEntry) => void;
  onReconnect: () => void;
  preferredId: string | null;
}) {
  const calendars = useGoogleCalendars(opened);
  const [chosen, setChosen] = useState<string | null>(null);
  const list = calendars.data?.calendars ?? [];
  const fallback = list.find((c) => c.id === preferredId) ?? list.find((c) => c.primary) ?? list[0];
  const value = chosen && list.some((c) => c.id === chosen) ? chosen : (fallback?.id ?? null);
  const notConnected = calendars.error instanceof ApiRequestError && calendars.error.code === 'calendar_not_connected';

  const done = () => {
    const calendar = list.find((c) => c.id === value);
    if (calendar) onChoose(calendar);
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.calendar.selectTitle}
      centered
      closeButtonProps={{ 'aria-label': MSG.calendar.close }}
    >
      <Stack gap="md">
        {calendars.isPending ? (
          <Group justify="center" py="md" role="status">
            <Loader size="sm" aria-label={MSG.loading.loading} />
          </Group>
        ) : calendars.error ? (
          <Alert color="red" role="alert">
            {calendars.error.message}
          </Alert>
        ) : list.length === 0 ? (
          <Alert color="yellow">{MSG.calendar.noCalendars}</Alert>
        ) : (
          <Select
            label={MSG.calendar.calendarLabel}
            placeholder={MSG.calendar.calendarPlaceholder}
            data={list.map((c) => ({ value: c.id, label: c.summary }))}
            value={value}
            onChange={setChosen}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {MSG.calendar.cancel}
          </Button>
          {notConnected ? (
            <Button onClick={onReconnect}>{MSG.calendar.connect}</Button>
          ) : (
            <Button onClick={done} disabled={!value}>
              {MSG.calendar.done}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
