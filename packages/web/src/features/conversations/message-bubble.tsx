import { useRef, useState } from 'react';
import { ActionIcon, Anchor, Box, Button, Group, Image, Paper, Text, Tooltip } from '@mantine/core';
import { Ban, Clock, Reply, RotateCw } from 'lucide-react';
import { withinEditWindow, type ConversationRef, type MessageType } from '@studybuddy/shared/chat';
import type { MessageQuote, MessageReaction } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { linkedStudySession } from '@studybuddy/shared/study-sessions';
import { formatWhen } from '../../lib/date-format.ts';
import { MessageMenu } from '../moderation/index.ts';
import { SessionCard } from '../study-sessions/index.ts';
import classes from './message-actions.module.css';
import { outbox } from './outbox.ts';
import { ReactionChips, ReactionPicker, useReact } from './message-reactions.tsx';
import { MessageEditor, OwnMessageMenu } from './own-message-actions.tsx';
import { ReplyQuote } from './reply-quote.tsx';

export interface BubbleMessage {
  id: string;
  type: MessageType;
  content: string;
  senderName: string;
  createdAt: string;
  mine: boolean;
  /** Not acknowledged yet ('pending'), or given up on ('failed'). */
  state?: 'pending' | 'failed';
  error?: string;
  /** Where a message the server has lives (its sender edits and deletes it there). */
  conversation?: ConversationRef;
  /** When its sender last edited it (ISO 8601). */
  editedAt?: string;
  /** Deleted for everyone: shown as "Message deleted". */
  deletedAt?: string;
  /** The message this one answers, quoted (issue 30). */
  replyTo?: MessageQuote;
  reactions?: MessageReaction[];
}

/** What the reader may do with others' messages and replies (issue 30); absent where they only read. */
export interface BubbleActions {
  me: string;
  /** Writes a reply to this message (given where the reader may write and the message may be answered). */
  onReply?: () => void;
  /** Goes to the message a reply quotes. */
  onJump?: (quote: MessageQuote) => void;
  /** The quoted message is from a student the reader blocked (a group): its words stay folded. */
  quoteHidden?: boolean;
}

/** How long a touch is held before the message's menu opens. */
const LONG_PRESS_MS = 500;

// Today's messages show their time alone; older ones say which day (lib/date-format.ts).
const time = (iso: string) => formatWhen(iso, { today: 'time' });

/**
 * One message: text, an image (opens full size) or a voice message played inline; "Message deleted" once deleted
 * for everyone. One's own message has a menu (⋯, or a long press) to edit a text in place or delete it.
 */
export function MessageBubble({
  message,
  showName,
  seen,
  onRetry,
  actions,
}: {
  message: BubbleMessage;
  showName: boolean;
  seen: boolean;
  onRetry?: () => void;
  actions?: BubbleActions;
}) {
  const { mine, conversation } = message;
  const deleted = !!message.deletedAt;
  const sessionId = message.type === 'text' ? linkedStudySession(message.content) : null;
  const sent = !message.state;
  const [menuOpen, setMenuOpen] = useState(false);
  const [pickerOpen, setPickerOpen] = useState(false);
  const react = useReact(conversation, message.id);
  const me = actions?.me ?? '';
  // Reactions and replies: on a message the server has, not deleted, where the reader may write.
  const onReply = sent && !deleted && conversation ? actions?.onReply : undefined;
  const canReact = !!onReply;
  const myReactions = new Set(
    (message.reactions ?? []).flatMap((r) => (r.users.some((u) => u.id === me) ? [r.emoji] : [])),
  );
  const [editing, setEditing] = useState(false);
  const press = useRef<ReturnType<typeof setTimeout>>(undefined);
  const hasMenu = mine && !deleted && !editing && (!sent || !!conversation);
  const canEdit = sent && message.type === 'text' && withinEditWindow(message.createdAt);
  // A long press (touch) or the context menu (right click, or a long press where the browser reports it) opens it.
  // Others' messages: the same gestures open the reactions (with Reply).
  const openOnPress = hasMenu ? setMenuOpen : canReact && !editing ? setPickerOpen : null;
  const longPress = openOnPress
    ? {
        onContextMenu: (e: React.MouseEvent) => {
          e.preventDefault();
          openOnPress(true);
        },
        onTouchStart: () => {
          clearTimeout(press.current);
          press.current = setTimeout(() => openOnPress(true), LONG_PRESS_MS);
        },
        onTouchEnd: () => clearTimeout(press.current),
        onTouchMove: () => clearTimeout(press.current),
        onTouchCancel: () => clearTimeout(press.current),
      }
    : {};
  const body = deleted ? (
    <Text size="sm" fs="italic" c="dimmed" style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
      <Ban size={14} aria-hidden />
      {MSG.chat.messageDeleted}
    </Text>
  ) : editing && conversation ? (
    <MessageEditor
      conversation={conversation}
      messageId={message.id}
      initial={message.content}
      onDone={() => setEditing(false)}
    />
  ) : message.type === 'image' ? (
    <Anchor href={message.content} target="_blank" rel="noreferrer" display="block">
      <Image
        src={message.content}
        alt={MSG.chat.imageAlt(message.senderName)}
        maw={260}
        mah={260}
        fit="contain"
        radius="md"
      />
    </Anchor>
  ) : message.type === 'voice' ? (
    <audio
      controls
      preload="metadata"
      src={message.content}
      aria-label={MSG.chat.voiceLabel(message.senderName)}
      style={{ display: 'block', width: 'min(260px, 55vw)' }}
    />
  ) : (
    <>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {sessionId && sent ? message.content.replace(/\n?\S*\/study-sessions\/[0-9a-f-]{36}\s*$/, '') : message.content}
      </Text>
      {/* A study session's message (issue 27) shows the session as it is now, as a card. */}
      {sessionId && sent && <SessionCard id={sessionId} />}
    </>
  );
  return (
    <Box
      component="li"
      data-testid="message"
      data-message-id={message.id}
      data-state={message.state ?? 'sent'}
      data-deleted={deleted || undefined}
      data-edited={(!deleted && !!message.editedAt) || undefined}
      className={classes.message}
      style={{ display: 'flex', flexDirection: 'column', alignItems: mine ? 'flex-end' : 'flex-start' }}
    >
      {showName && !mine && (
        <Text size="xs" c="dimmed" px={4}>
          {message.senderName}
        </Text>
      )}
      <Paper
        px="sm"
        py={6}
        radius="lg"
        maw="min(80%, 520px)"
        w={editing ? 'min(80%, 520px)' : undefined}
        bg={deleted ? 'transparent' : mine ? 'var(--sb-bubble-mine)' : 'var(--sb-bubble-theirs)'}
        className={openOnPress ? classes.pressable : undefined}
        style={{
          opacity: message.state === 'pending' ? 0.7 : 1,
          ...(deleted ? { border: '1px dashed var(--mantine-color-default-border)' } : {}),
        }}
        {...longPress}
      >
        {message.replyTo && !deleted && (
          <ReplyQuote
            quote={message.replyTo}
            hidden={actions?.quoteHidden}
            onJump={actions?.onJump ? () => actions.onJump!(message.replyTo!) : undefined}
          />
        )}
        {body}
      </Paper>
      {!deleted && !!message.reactions?.length && (
        <ReactionChips reactions={message.reactions} me={me} onToggle={canReact ? react : undefined} />
      )}
      <Group gap={6} px={4} wrap="nowrap">
        {/* One's own message: its menu (Edit, Delete) before its time; an unsent one can only be taken back. */}
        {hasMenu && (
          <OwnMessageMenu
            opened={menuOpen}
            onChange={setMenuOpen}
            onEdit={canEdit ? () => setEditing(true) : undefined}
            onReply={onReply}
            onDelete={sent ? undefined : () => outbox.cancel(message.id)}
            deleteFor={sent && conversation ? { conversation, messageId: message.id } : undefined}
          />
        )}
        {message.state === 'pending' ? (
          <Text size="xs" c="dimmed" span>
            <Clock size={11} aria-hidden style={{ verticalAlign: -1 }} /> {MSG.chat.pending}
          </Text>
        ) : message.state === 'failed' ? (
          <>
            <Text size="xs" c="var(--mantine-color-error)" span role="alert">
              {MSG.chat.notSent}
              {message.error ? `: ${message.error}` : ''}
            </Text>
            {onRetry && (
              <Button
                size="compact-xs"
                variant="subtle"
                leftSection={<RotateCw size={12} aria-hidden />}
                onClick={onRetry}
              >
                {MSG.chat.retry}
              </Button>
            )}
          </>
        ) : (
          <>
            {onReply && (
              <Tooltip label={MSG.replies.reply}>
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  size="sm"
                  className={classes.actions}
                  aria-label={MSG.replies.replyTo(message.senderName)}
                  onClick={onReply}
                >
                  <Reply size={14} aria-hidden />
                </ActionIcon>
              </Tooltip>
            )}
            {canReact && (
              <ReactionPicker
                opened={pickerOpen}
                onChange={setPickerOpen}
                mine={myReactions}
                onPick={react}
                onReply={mine ? undefined : onReply}
              />
            )}
            <Text size="xs" c="dimmed" span>
              {time(message.createdAt)}
              {message.editedAt && !deleted && (
                <span title={MSG.chat.editedAt(time(message.editedAt))}>{` · ${MSG.chat.edited}`}</span>
              )}
              {seen ? ` · ${MSG.chat.seen}` : ''}
            </Text>
            {/* Others' messages can be reported from their menu (not once deleted: nothing is left to report). */}
            {!mine && !deleted && <MessageMenu messageId={message.id} />}
          </>
        )}
      </Group>
    </Box>
  );
}
