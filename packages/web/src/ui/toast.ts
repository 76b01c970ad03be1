import { notifications } from '@mantine/notifications';
import { LIMITS } from '@studybuddy/shared/limits';
import { SHELL_MSG as MSG } from '@studybuddy/shared/messages/shell';
import { wantToasts } from './toasts-wanted.ts';

function show(color: string, message: string, title?: string) {
  // The toasts mount with the first one (app/providers.tsx); it waits in the store until they are in.
  wantToasts();
  return notifications.show({
    color,
    title,
    message,
    autoClose: LIMITS.toastMs,
    closeButtonProps: { 'aria-label': MSG.shell.closeToast },
  });
}

/** The app's toasts: 3 seconds each (requirements §8, §9), with a named close button. */
export const toast = {
  success: (message: string, title?: string) => show('green', message, title),
  error: (message: string, title?: string) => show('red', message, title),
  info: (message: string) => show('blue', message),
  /** Something ended that was neither a success nor a failure (a disconnected account). */
  neutral: (message: string) => show('gray', message),
};
