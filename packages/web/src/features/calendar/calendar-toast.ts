import { notifications } from '@mantine/notifications';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';

/** A 3-second toast (spec §9) whose close button has a name. */
export const calendarToast = (color: 'green' | 'red', message: string, title?: string) =>
  notifications.show({
    color,
    title,
    message,
    autoClose: LIMITS.toastMs,
    closeButtonProps: { 'aria-label': MSG.calendar.close },
  });
