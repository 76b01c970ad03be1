import { notifications } from '@mantine/notifications';
import { LIMITS } from '@studybuddy/shared/limits';

/** The spec's toasts (§8): 3 seconds each. */
const show = (color: string, message: string) => notifications.show({ color, message, autoClose: LIMITS.toastMs });

export const toast = {
  success: (message: string) => show('green', message),
  error: (message: string) => show('red', message),
  info: (message: string) => show('blue', message),
};
