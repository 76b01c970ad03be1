import { useCallback, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { CALENDAR_RETURN, CALENDAR_RETURN_PARAM, type GoogleCalendarEntry } from '@studybuddy/shared/calendar';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { toast } from '../../ui/toast.ts';
import {
  CALENDAR_STATUS_KEY,
  downloadIcs,
  GOOGLE_AUTHORIZE_PATH,
  useCalendarStatus,
  useGoogleExport,
} from './calendar-api.ts';

/** The host page's card selection the export drives (requirements §2: clicking a card in export mode toggles it). */
export interface ExportSelection {
  exportMode: boolean;
  selected: ReadonlySet<string>;
  toggle(id: string): void;
  enter(): void;
  exit(): void;
}

export type ExportTarget = { kind: 'google'; calendar: GoogleCalendarEntry } | { kind: 'ics' };

/**
 * The calendar export flow of the Coursework page (requirements §4 Calendar connect): connect Google (the server's
 * consent round trip, skipped while its token is valid), pick a calendar, select cards in export mode, Export.
 * The .ics export uses the same export mode without any Google account.
 */
export function useCalendarExport(selection: ExportSelection) {
  const client = useQueryClient();
  const status = useCalendarStatus();
  const googleExport = useGoogleExport();
  const [params, setParams] = useSearchParams();
  const [pickerOpen, setPickerOpen] = useState(false);
  const [feedOpen, setFeedOpen] = useState(false);
  const [target, setTarget] = useState<ExportTarget | null>(null);
  const [failed, setFailed] = useState<string[]>([]);
  const [connecting, setConnecting] = useState(false);
  const [exporting, setExporting] = useState(false);

  // Back from Google's consent page: /assignments?calendar=connected (or denied, failed).
  const outcome = params.get(CALENDAR_RETURN_PARAM);
  useEffect(() => {
    if (!outcome) return;
    setParams(
      (p) => {
        p.delete(CALENDAR_RETURN_PARAM);
        return p;
      },
      { replace: true },
    );
    void client.invalidateQueries({ queryKey: CALENDAR_STATUS_KEY });
    if (outcome === CALENDAR_RETURN.connected) setPickerOpen(true);
    else toast.error(MSG.calendar.connectFailed);
  }, [outcome, setParams, client]);

  const reconnect = () => window.location.assign(GOOGLE_AUTHORIZE_PATH);

  /** A valid (or refreshable) token is reused; otherwise the consent page. */
  const connectGoogle = useCallback(async () => {
    setConnecting(true);
    try {
      const fresh = await status.refetch();
      if (fresh.data?.google.connected) setPickerOpen(true);
      else reconnect();
    } finally {
      setConnecting(false);
    }
  }, [status]);

  const begin = (next: ExportTarget) => {
    setTarget(next);
    setFailed([]);
    selection.enter();
  };
  const chooseCalendar = (calendar: GoogleCalendarEntry) => {
    setPickerOpen(false);
    begin({ kind: 'google', calendar });
  };
  const startIcs = () => begin({ kind: 'ics' });
  const cancel = () => {
    setTarget(null);
    setFailed([]);
    selection.exit();
  };

  const exportSelected = async () => {
    const ids = [...selection.selected];
    if (!target || ids.length === 0) return;
    setExporting(true);
    try {
      if (target.kind === 'ics') {
        await downloadIcs(ids);
        toast.success(MSG.calendar.icsDownloaded);
        cancel();
        return;
      }
      // Opened now, while the click still counts as the user's (popup blockers); filled in once the link is known.
      const tab = window.open('', '_blank');
      if (tab) tab.opener = null;
      let result;
      try {
        result = await googleExport.mutateAsync({ calendar_id: target.calendar.id, item_ids: ids });
      } catch (err) {
        tab?.close();
        throw err;
      }
      if (result.first_link) {
        if (tab) tab.location.href = result.first_link;
        else window.open(result.first_link, '_blank', 'noopener');
      } else tab?.close();
      if (result.failed.length === 0) {
        toast.success(MSG.calendar.success);
        cancel();
      } else {
        toast.error(MSG.calendar.failedItems(result.failed.join(', ')), MSG.calendar.failure);
        // Export mode stays with only the failed items selected, ready to try again.
        setFailed(result.failed);
        selection.enter();
        for (const r of result.results) if (!r.ok) selection.toggle(r.id);
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : MSG.calendar.failure;
      toast.error(message, MSG.calendar.failure);
      if (err instanceof ApiRequestError && err.code === 'calendar_not_connected') {
        cancel();
        void client.invalidateQueries({ queryKey: CALENDAR_STATUS_KEY });
      }
    } finally {
      setExporting(false);
    }
  };

  return {
    googleConfigured: status.data?.google.configured ?? false,
    googleConnected: status.data?.google.connected ?? false,
    lastCalendarId: status.data?.google.calendar_id ?? null,
    connecting,
    connectGoogle,
    reconnect,
    pickerOpen,
    closePicker: () => setPickerOpen(false),
    chooseCalendar,
    feedOpen,
    openFeed: () => setFeedOpen(true),
    closeFeed: () => setFeedOpen(false),
    target,
    startIcs,
    cancel,
    exportSelected,
    exporting,
    failed,
  };
}

export type CalendarExport = ReturnType<typeof useCalendarExport>;
