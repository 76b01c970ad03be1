import { useState, type KeyboardEvent } from 'react';
import { ActionIcon, Button, Group, Menu, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Ellipsis, Pencil, Reply, Trash2 } from 'lucide-react';
import { CHAT_LIMITS, type ConversationRef } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { ConfirmModal, type ModalState } from '../../ui/form-actions.tsx';
import { conversationsApi } from './conversations-api.ts';
import classes from './message-actions.module.css';
import { applyMessageUpdate } from './message-cache.ts';

/** The server's words for a refusal (someone else's message, the edit window over), else ours. */
const failureText = (err: unknown, fallback: string) =>
  err instanceof ApiRequestError && err.status >= 400 && err.status < 500 && err.message ? err.message : fallback;

interface MenuProps {
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** Offered for a text still within the edit window. */
  onEdit?: () => void;
  /** Answers the message (issue 30): a long press opens this menu on one's own messages. */
  onReply?: () => void;
  /** Deletes at once (an unsent message), else after asking (`deleteFor`). */
  onDelete?: () => void;
  /** A message the server has: Delete asks first, then deletes it for everyone in this conversation. */
  deleteFor?: { conversation: ConversationRef; messageId: string };
}

/**
 * The menu of one's own message (⋯ beside its time; a long press on the message opens it too): Edit for a text
 * within the edit window, and Delete, which asks before deleting for everyone.
 */
export function OwnMessageMenu({ opened, onChange, onEdit, onReply, onDelete, deleteFor }: MenuProps) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Menu opened={opened} onChange={onChange} position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
        <Menu.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="sm"
            className={classes.actions}
            aria-label={MSG.chat.messageActions}
          >
            <Ellipsis size={14} aria-hidden />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {onReply && (
            <Menu.Item leftSection={<Reply size={14} aria-hidden />} onClick={onReply}>
              {MSG.replies.reply}
            </Menu.Item>
          )}
          {onEdit && (
            <Menu.Item leftSection={<Pencil size={14} aria-hidden />} onClick={onEdit}>
              {MSG.chat.edit}
            </Menu.Item>
          )}
          <Menu.Item
            color="red.8"
            leftSection={<Trash2 size={14} aria-hidden />}
            onClick={() => (deleteFor ? setConfirming(true) : onDelete?.())}
          >
            {MSG.chat.delete}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {deleteFor && <DeleteDialog opened={confirming} onClose={() => setConfirming(false)} target={deleteFor} />}
    </>
  );
}

/** Asks before deleting a message for everyone, then deletes it; the history shows "Message deleted" at once. */
function DeleteDialog({
  opened,
  onClose,
  target,
}: ModalState & { target: { conversation: ConversationRef; messageId: string } }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => conversationsApi.remove(target.conversation, target.messageId),
    onSuccess: ({ message }) => {
      applyMessageUpdate(client, message);
      onClose();
    },
  });
  const close = () => {
    remove.reset();
    onClose();
  };
  return (
    <ConfirmModal
      opened={opened}
      onClose={close}
      title={MSG.chat.deleteTitle}
      closeLabel={MSG.chat.cancelEdit}
      error={remove.isError && failureText(remove.error, MSG.chat.deleteFailed)}
      cancelLabel={MSG.chat.cancelEdit}
      confirmLabel={MSG.chat.deleteConfirm}
      confirmIcon={<Trash2 size={16} aria-hidden />}
      danger
      pending={remove.isPending}
      onConfirm={() => remove.mutate()}
    >
      <Text size="sm">{MSG.chat.deleteBody}</Text>
    </ConfirmModal>
  );
}

/**
 * A text being edited in place: Enter (or Save) saves, Shift+Enter starts a new line, Escape (or Cancel) leaves it
 * as it was. The server's refusal (the edit window over) shows under it.
 */
export function MessageEditor({
  conversation,
  messageId,
  initial,
  onDone,
}: {
  conversation: ConversationRef;
  messageId: string;
  initial: string;
  onDone: () => void;
}) {
  const client = useQueryClient();
  const [text, setText] = useState(initial);
  const save = useMutation({
    mutationFn: (content: string) => conversationsApi.edit(conversation, messageId, content),
    onSuccess: ({ message }) => {
      applyMessageUpdate(client, message);
      onDone();
    },
  });
  const submit = () => {
    const content = text.trim();
    if (!content || save.isPending) return;
    if (content === initial.trim()) onDone();
    else save.mutate(content);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      onDone();
    } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <Stack gap={6}>
        <Textarea
          aria-label={MSG.chat.editLabel}
          description={MSG.chat.editHint}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          onKeyDown={onKeyDown}
          maxLength={CHAT_LIMITS.textMaxChars}
          autosize
          minRows={1}
          maxRows={8}
          size="sm"
          data-autofocus
          autoFocus
          onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
        />
        {save.isError && (
          <Text size="xs" c="var(--mantine-color-error)" role="alert">
            {failureText(save.error, MSG.chat.editFailed)}
          </Text>
        )}
        <Group gap={6} justify="flex-end" wrap="nowrap">
          <Button size="compact-sm" variant="default" onClick={onDone}>
            {MSG.chat.cancelEdit}
          </Button>
          <Button size="compact-sm" type="submit" loading={save.isPending} disabled={!text.trim()}>
            {MSG.chat.saveEdit}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
