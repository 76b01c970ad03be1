import { useState } from 'react';
import { ActionIcon, Button, Divider, Group, Popover, SimpleGrid, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Plus, Reply, SmilePlus } from 'lucide-react';
import type { ConversationRef } from '@studybuddy/shared/chat';
import { MORE_REACTIONS, QUICK_REACTIONS, type MessageReaction } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { toast } from '../../ui/toast.ts';
import { conversationsApi } from './conversations-api.ts';
import classes from './message-actions.module.css';
import { applyMessageUpdate } from './message-cache.ts';

/** Adds or takes back the reader's reaction; the answer (the message as it is now) goes into every history. */
export function useReact(conversation: ConversationRef | undefined, messageId: string) {
  const client = useQueryClient();
  return (emoji: string, reacted: boolean) => {
    if (!conversation) return;
    conversationsApi.react(conversation, messageId, emoji, reacted).then(
      ({ message }) => applyMessageUpdate(client, message),
      (err: unknown) =>
        toast.error(
          err instanceof ApiRequestError && err.status < 500 && err.message ? err.message : MSG.reactions.failed,
        ),
    );
  };
}

/**
 * A message's reactions (issue 30): one chip per emoji with its count; hovering or focusing one tells who reacted;
 * clicking adds the reader's or takes it back.
 */
export function ReactionChips({
  reactions,
  me,
  onToggle,
}: {
  reactions: MessageReaction[];
  me: string;
  onToggle?: (emoji: string, reacted: boolean) => void;
}) {
  return (
    <Group gap={4} px={4} mt={2} role="group" aria-label={MSG.reactions.label} data-testid="reactions">
      {reactions.map((r) => {
        const mine = r.users.some((u) => u.id === me);
        const names = [...r.users].sort((a, b) => Number(b.id === me) - Number(a.id === me));
        const who = MSG.reactions.who(
          r.emoji,
          names.map((u) => (u.id === me ? MSG.reactions.you : u.name)),
        );
        return (
          <Tooltip key={r.emoji} label={who} events={{ hover: true, focus: true, touch: true }} withinPortal>
            <Button
              size="compact-xs"
              radius="xl"
              variant={mine ? 'light' : 'default'}
              aria-pressed={mine}
              aria-label={`${who}. ${MSG.reactions.toggle(r.emoji, r.users.length, mine)}`}
              data-emoji={r.emoji}
              data-count={r.users.length}
              onClick={() => onToggle?.(r.emoji, !mine)}
              disabled={!onToggle}
            >
              {r.emoji} {r.users.length}
            </Button>
          </Tooltip>
        );
      })}
    </Group>
  );
}

/**
 * The React button beside a message (shown on hover and focus, always on touch screens; a long press on the message
 * opens it too): the six quick reactions, More for the rest of the allowed set, and Reply.
 */
export function ReactionPicker({
  opened,
  onChange,
  mine,
  onPick,
  onReply,
}: {
  opened: boolean;
  onChange: (opened: boolean) => void;
  /** The emoji the reader has given already (picking one again takes it back). */
  mine: Set<string>;
  onPick: (emoji: string, reacted: boolean) => void;
  onReply?: () => void;
}) {
  const [more, setMore] = useState(false);
  const pick = (emoji: string) => {
    onPick(emoji, !mine.has(emoji));
    onChange(false);
  };
  const emojiButton = (emoji: string) => (
    <ActionIcon
      key={emoji}
      variant={mine.has(emoji) ? 'light' : 'subtle'}
      color="gray"
      size="lg"
      aria-label={MSG.reactions.reactWith(emoji)}
      aria-pressed={mine.has(emoji)}
      onClick={() => pick(emoji)}
      style={{ fontSize: 18 }}
    >
      {emoji}
    </ActionIcon>
  );
  return (
    <Popover
      opened={opened}
      onChange={(o) => {
        onChange(o);
        if (!o) setMore(false);
      }}
      position="top"
      // Its roles are set here: the dialog is named by its own title rather than by the button that opens it.
      withRoles={false}
      withinPortal
      trapFocus
      returnFocus
      shadow="md"
    >
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          className={classes.actions}
          aria-label={MSG.reactions.addReaction}
          aria-haspopup="dialog"
          aria-expanded={opened}
          data-expanded={opened || undefined}
          // A controlled popover leaves opening to its target.
          onClick={() => onChange(!opened)}
        >
          <SmilePlus size={14} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={6} role="dialog" aria-label={MSG.reactions.pickerTitle}>
        <Group gap={2} wrap="nowrap">
          {QUICK_REACTIONS.map(emojiButton)}
          <ActionIcon
            variant={more ? 'light' : 'subtle'}
            color="gray"
            size="lg"
            aria-label={MSG.reactions.moreReactions}
            aria-expanded={more}
            onClick={() => setMore((m) => !m)}
          >
            <Plus size={16} aria-hidden />
          </ActionIcon>
        </Group>
        {more && (
          <SimpleGrid cols={7} spacing={2} verticalSpacing={2} mt={4}>
            {MORE_REACTIONS.map(emojiButton)}
          </SimpleGrid>
        )}
        {onReply && (
          <>
            <Divider my={4} />
            <Button
              variant="subtle"
              color="gray"
              size="compact-sm"
              fullWidth
              justify="flex-start"
              leftSection={<Reply size={14} aria-hidden />}
              onClick={() => {
                onChange(false);
                onReply();
              }}
            >
              {MSG.replies.reply}
            </Button>
          </>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
