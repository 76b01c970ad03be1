import { useState } from 'react';
import { ActionIcon, Button, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ban } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { ConfirmModal } from '../../ui/form-actions.tsx';
import { toast } from '../../ui/toast.ts';
import { blockKeys, blocksApi } from './blocks-api.ts';

/** Whom a dialog is about. */
export interface BlockTarget {
  userId: string;
  name: string;
}

/**
 * Asks before blocking (what it does, and that they are not told), then blocks. `onBlocked` lets the screen move
 * on (the next match, the chat's read-only view); the student's other lists refresh from the server's event.
 */
export function BlockDialog({
  target,
  onClose,
  onBlocked,
}: {
  target: BlockTarget | null;
  onClose: () => void;
  onBlocked?: (target: BlockTarget) => void;
}) {
  const client = useQueryClient();
  // Kept while the modal closes, so its text does not vanish during the transition.
  const [shown, setShown] = useState(target);
  if (target && target !== shown) setShown(target);
  const block = useMutation({
    mutationFn: (t: BlockTarget) => blocksApi.block(t.userId),
    onSuccess: async (_d, t) => {
      toast.success(MSG.block.blocked(t.name));
      await client.invalidateQueries({ queryKey: blockKeys.all });
      onBlocked?.(t);
      onClose();
    },
  });
  const close = () => {
    block.reset();
    onClose();
  };
  const failure =
    block.error instanceof ApiRequestError && block.error.status >= 400 && block.error.status < 500
      ? block.error.message
      : MSG.block.failed;
  const name = shown?.name ?? '';
  return (
    <ConfirmModal
      opened={target !== null}
      onClose={close}
      title={MSG.block.confirmTitle(name)}
      closeLabel={MSG.block.cancel}
      error={block.isError && failure}
      cancelLabel={MSG.block.cancel}
      confirmLabel={MSG.block.confirm}
      confirmIcon={<Ban size={16} aria-hidden />}
      danger
      pending={block.isPending}
      onConfirm={() => shown && block.mutate(shown)}
    >
      <Text size="sm">{MSG.block.confirmBody}</Text>
    </ConfirmModal>
  );
}

/**
 * "Block" on a student's card or a chat header: a subtle button (or, `compact`, an icon with the same name) that
 * asks first.
 */
export function BlockButton({
  userId,
  name,
  compact,
  onBlocked,
}: BlockTarget & { compact?: boolean; onBlocked?: (target: BlockTarget) => void }) {
  const [target, setTarget] = useState<BlockTarget | null>(null);
  const label = MSG.block.blockStudent(name);
  const open = () => setTarget({ userId, name });
  return (
    <>
      {compact ? (
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} title={label} onClick={open}>
          <Ban size={18} aria-hidden />
        </ActionIcon>
      ) : (
        <Button
          variant="subtle"
          color="gray"
          leftSection={<Ban size={16} aria-hidden />}
          aria-label={label}
          onClick={open}
        >
          {MSG.block.action}
        </Button>
      )}
      <BlockDialog target={target} onClose={() => setTarget(null)} onBlocked={onBlocked} />
    </>
  );
}

/** Unblock, at once (nothing comes back by itself: no friendship, no request). */
export function useUnblock() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (t: BlockTarget) => blocksApi.unblock(t.userId),
    onSuccess: (_d, t) => toast.success(MSG.block.unblocked(t.name)),
    onError: () => toast.error(MSG.block.unblockFailed),
    onSettled: () => client.invalidateQueries({ queryKey: blockKeys.all }),
  });
}
