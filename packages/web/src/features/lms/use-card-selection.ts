import { useCallback, useState } from 'react';

/**
 * Card selection for the calendar export (requirements §2): in export mode the flame buttons hide and clicking a card
 * toggles it. The calendar slot drives this: `enter()` after a calendar is chosen, `selected` to export,
 * `exit()` on cancel or when done.
 */
export function useCardSelection() {
  const [exportMode, setExportMode] = useState(false);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());

  const toggle = useCallback((id: string) => {
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const enter = useCallback(() => {
    setSelected(new Set());
    setExportMode(true);
  }, []);
  const exit = useCallback(() => {
    setSelected(new Set());
    setExportMode(false);
  }, []);

  return { exportMode, selected, toggle, enter, exit };
}

export type CardSelection = ReturnType<typeof useCardSelection>;
