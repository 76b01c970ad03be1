import { notifications } from '@mantine/notifications';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';

/** A 3-second toast (spec §9) whose close button has a name. */
export const lmsToast = (color: 'green' | 'red' | 'gray', message: string) =>
  notifications.show({ color, message, autoClose: LIMITS.toastMs, closeButtonProps: { 'aria-label': MSG.lms.close } });
