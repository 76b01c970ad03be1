import { useEffect } from 'react';
import { Badge, VisuallyHidden } from '@mantine/core';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { useDue, useSettings } from './flashcards-api.ts';

const REMINDED_KEY = 'sb-flashcards-reminded';

/**
 * The sidebar's count of cards due, and the in-app side of the daily reminder: once a day, with the reminder on and
 * cards due, a notice says how many (the push notice covers the app being closed).
 */
export function FlashcardsDueBadge() {
  const { data: due } = useDue();
  const { data: settings } = useSettings();
  useEffect(() => {
    if (!due || !settings?.dailyReminder) return;
    const today = new Date().toISOString().slice(0, 10);
    if (localStorage.getItem(REMINDED_KEY) === today) return;
    localStorage.setItem(REMINDED_KEY, today);
    toast.info(MSG.flashcards.dueToday(due));
  }, [due, settings?.dailyReminder]);
  if (!due) return null;
  return (
    <>
      <Badge size="sm" variant="light" data-testid="flashcards-due" aria-hidden>
        {due}
      </Badge>
      <VisuallyHidden>{MSG.flashcards.dueBadge(due)}</VisuallyHidden>
    </>
  );
}
