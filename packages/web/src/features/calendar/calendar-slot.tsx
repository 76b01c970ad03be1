import type { ReactNode } from 'react';
import { CalendarActions } from './calendar-actions.tsx';
import { ExportBar } from './export-bar.tsx';
import { FeedModal } from './feed-modal.tsx';
import { SelectCalendarModal } from './select-calendar-modal.tsx';
import { useCalendarExport, type ExportSelection } from './use-calendar-export.ts';

export interface CalendarParts {
  /** The header's buttons: Connect Google Calendar, .ics export, subscription feed. */
  actions: ReactNode;
  /** Export mode's bar (nothing outside export mode). */
  exportBar: ReactNode;
}

/**
 * The calendar export on the Coursework page: the host gives its card selection and places the parts where its
 * layout wants them; the slot runs the flow and shows its own modals.
 */
export function CalendarSlot({
  selection,
  children,
}: {
  selection: ExportSelection;
  children: (parts: CalendarParts) => ReactNode;
}) {
  const calendar = useCalendarExport(selection);
  return (
    <>
      {children({
        actions: <CalendarActions calendar={calendar} disabled={selection.exportMode} />,
        exportBar: <ExportBar calendar={calendar} selectedCount={selection.selected.size} />,
      })}
      <SelectCalendarModal
        opened={calendar.pickerOpen}
        onClose={calendar.closePicker}
        onChoose={calendar.chooseCalendar}
        onReconnect={calendar.reconnect}
        preferredId={calendar.lastCalendarId}
      />
      <FeedModal opened={calendar.feedOpen} onClose={calendar.closeFeed} />
    </>
  );
}
