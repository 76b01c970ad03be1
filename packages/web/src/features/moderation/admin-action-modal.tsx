import { useState } from 'react';
import { Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MODERATION_MSG as MSG } from '@studybuddy/shared/messages/moderation';
import { MODERATION_LIMITS } from '@studybuddy/shared/moderation';
import { ApiRequestError } from '../../lib/api.ts';
import { ConfirmModal } from '../../ui/form-actions.tsx';
import { toast } from '../../ui/toast.ts';
import { adminApi, adminKeys, type AdminAction } from './moderation-api.ts';

export type PendingAction = AdminAction & {
  /** The report this action settles, if any. */
  reportId?: string;
  /** Who or what it is about, shown in the confirmation. */
  subject: string;
};

/** Every admin action asks why (the audit log keeps it), then refreshes the whole admin area. */
export function AdminActionModal({ action, onClose }: { action: PendingAction | null; onClose: () => void }) {
  const client = useQueryClient();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const act = useMutation({
    mutationFn: (a: PendingAction) =>
      adminApi.act(a, { reason: reason.trim(), ...(a.reportId ? { reportId: a.reportId } : {}) }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.all });
      toast.success(MSG.admin.done);
      close();
    },
  });
  function close() {
    onClose();
    setReason('');
    setError(undefined);
    act.reset();
  }
  const submit = () => {
    if (!action) return;
    if (!reason.trim()) {
      setError(MSG.admin.whyRequired);
      return;
    }
    act.mutate(action);
  };
  const failure =
    act.error instanceof ApiRequestError && act.error.status >= 400 && act.error.status < 500
      ? act.error.message
      : MSG.admin.failed;
  const kind = action?.kind ?? 'resolve';
  return (
    <ConfirmModal
      opened={!!action}
      onClose={close}
      title={MSG.admin.confirmTitle[kind]}
      closeLabel={MSG.admin.cancel}
      form
      onConfirm={submit}
      error={act.isError && failure}
      cancelLabel={MSG.admin.cancel}
      confirmLabel={MSG.admin.actions[kind]}
      danger={kind !== 'resolve' && kind !== 'enable'}
      pending={act.isPending}
    >
      {action && (
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {action.subject}
        </Text>
      )}
      <Text size="sm">{MSG.admin.confirmBody[kind]}</Text>
      <Textarea
        label={MSG.admin.why}
        required
        autosize
        minRows={2}
        maxLength={MODERATION_LIMITS.reasonMaxChars}
        value={reason}
        onChange={(e) => {
          setReason(e.currentTarget.value);
          setError(undefined);
        }}
        error={error}
        data-autofocus
      />
    </ConfirmModal>
  );
}
