import type { FormEvent, ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';

export interface FormActionsProps {
  /** The refusal to show above the buttons, if any. */
  error?: ReactNode;
  cancelLabel: string;
  onCancel: () => void;
  /** Cancel takes the focus when the dialog opens (a confirmation whose action cannot be undone). */
  cancelAutofocus?: boolean;
  confirmLabel: string;
  /** The action as a click; without it, the action submits the surrounding form. */
  onConfirm?: () => void;
  confirmIcon?: ReactNode;
  /** A red action (deleting, blocking, reporting). */
  danger?: boolean;
  pending?: boolean;
  disabled?: boolean;
}

/** The foot of a form or a confirmation: the refusal in a red alert, then Cancel and the action on the right. */
export function FormActions({
  error,
  cancelLabel,
  onCancel,
  cancelAutofocus,
  confirmLabel,
  onConfirm,
  confirmIcon,
  danger,
  pending,
  disabled,
}: FormActionsProps) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel} data-autofocus={cancelAutofocus || undefined}>
          {cancelLabel}
        </Button>
        <Button
          type={onConfirm ? 'button' : 'submit'}
          color={danger ? 'red' : undefined}
          leftSection={confirmIcon}
          loading={pending}
          disabled={disabled}
          onClick={onConfirm}
        >
          {confirmLabel}
        </Button>
      </Group>
    </>
  );
}

/** What a modal needs from the screen that opens it. */
export interface ModalState {
  opened: boolean;
  onClose: () => void;
}

/**
 * A centred modal asking before an action: its words (and any fields) above, the refusal and the buttons below.
 * Cancel and the close button (named `closeLabel`) call `onClose`. With `form`, the content is a form whose submit
 * (Enter in a field, or the action button) calls `onConfirm`.
 */
export function ConfirmModal({
  opened,
  onClose,
  title,
  closeLabel,
  form,
  onConfirm,
  children,
  ...actions
}: ModalState &
  Omit<FormActionsProps, 'onCancel' | 'onConfirm'> & {
    title: string;
    closeLabel: string;
    form?: boolean;
    onConfirm: () => void;
    children: ReactNode;
  }) {
  const body = (
    <Stack>
      {children}
      <FormActions onCancel={onClose} onConfirm={form ? undefined : onConfirm} {...actions} />
    </Stack>
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onConfirm();
  };
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered closeButtonProps={{ 'aria-label': closeLabel }}>
      {form ? (
        <form onSubmit={submit} noValidate>
          {body}
        </form>
      ) : (
        body
      )}
    </Modal>
  );
}
