import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { Box, Center, Loader, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { ChatMessage } from '@studybuddy/shared/chat';
import type { MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { FoldedMessage } from '../blocks/index.ts';
import { MessageBubble, type BubbleMessage } from './message-bubble.tsx';
import type { OutboxEntry } from './outbox.ts';

interface Props {
  me: string;
  messages: ChatMessage[];
  pending: OutboxEntry[];
  peerLastRead?: number;
  showNames: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => void;
  /** Opened at a message: newer messages are still to load below. */
  hasNewer: boolean;
  loadingNewer: boolean;
  loadNewer: () => void;
  /** The message the history was opened at (or a reply's quote went to): shown (centred) and highlighted once. */
  focusId?: string;
  /** A new value shows `focusId` again (a quote clicked twice). */
  focusKey?: string;
  /** Answers a message (issue 30); absent where the reader only reads. */
  onReply?: (message: ChatMessage) => void;
  /** Goes to the message a reply quotes. */
  onJump?: (quote: MessageQuote) => void;
  /** Senders whose messages are folded until the reader shows them (students they blocked, in a group). */
  foldFrom?: ReadonlySet<string>;
  onRetry: (id: string) => void;
}

/** Near the bottom: new messages keep the view at the newest one. */
const NEAR_BOTTOM_PX = 150;
/** How long the message a search opened at stays highlighted. */
const HIGHLIGHT_MS = 2500;

/** Brings the found message into view, highlights it briefly and gives it the focus (keyboard users land on it). */
function showFound(el: HTMLElement) {
  el.scrollIntoView({ block: 'center' });
  el.setAttribute('data-found', 'true');
  el.tabIndex = -1;
  el.focus({ preventScroll: true });
  el.animate?.([{ backgroundColor: 'rgba(250, 204, 21, 0.45)' }, { backgroundColor: 'rgba(250, 204, 21, 0)' }], {
    duration: HIGHLIGHT_MS,
    easing: 'ease-in',
  });
}

/**
 * Calls `load` when the sentinel comes within 200 px of the scroller's `edge` (the top for older messages, the bottom
 * for newer ones), while there are more to load and none are loading.
 */
function useLoadAtEdge(
  sentinel: RefObject<HTMLElement | null>,
  scroller: RefObject<HTMLElement | null>,
  edge: 'top' | 'bottom',
  more: boolean,
  loading: boolean,
  load: () => void,
) {
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !more) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !loading) load();
      },
      { root: scroller.current, rootMargin: edge === 'top' ? '200px 0px 0px 0px' : '0px 0px 200px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [sentinel, scroller, edge, more, loading, load]);
}

/**
 * The history, newest at the bottom. Scrolling to the top loads older messages without moving what is on
 * screen; new messages scroll into view when the reader is at the bottom (always for their own).
 */
export function MessageList({
  me,
  messages,
  pending,
  peerLastRead,
  showNames,
  hasOlder,
  loadingOlder,
  loadOlder,
  hasNewer,
  loadingNewer,
  loadNewer,
  focusId,
  focusKey,
  foldFrom,
  onReply,
  onJump,
  onRetry,
}: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const bottomSentinel = useRef<HTMLDivElement>(null);
  const firstId = messages[0]?.id;
  const lastKey = `${messages.at(-1)?.id ?? ''}:${pending.length}`;
  const state = useRef({ firstId, lastKey: '', fromBottom: 0, atBottom: true, initial: true, hasNewer, shown: '' });

  const rows: BubbleMessage[] = [
    ...messages.map((m) => ({
      id: m.id,
      type: m.type,
      content: m.content,
      senderName: m.senderId ? m.senderName : MSG.chat.deletedUser,
      createdAt: m.createdAt,
      mine: m.senderId === me,
      conversation: m.conversation,
      editedAt: m.editedAt,
      deletedAt: m.deletedAt,
      replyTo: m.replyTo,
      reactions: m.reactions,
    })),
    ...pending.map((p) => ({
      id: p.id,
      type: p.type,
      content: p.text ?? p.localUrl ?? p.url ?? '',
      senderName: p.senderName,
      createdAt: p.createdAt,
      mine: true,
      state: p.status,
      error: p.error,
      replyTo: p.replyTo,
    })),
  ];
  const folded = new Set(
    messages.flatMap((m) => (m.senderId && m.senderId !== me && foldFrom?.has(m.senderId) ? [m.id] : [])),
  );
  const byId = new Map(messages.map((m) => [m.id, m]));
  const lastMine = messages.findLast((m) => m.senderId === me);
  const seenId = peerLastRead !== undefined && lastMine && peerLastRead >= lastMine.cursor ? lastMine.id : null;

  // Keep the reader's place when older messages are put above, follow new ones at the bottom.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const s = state.current;
    const found = focusId ? el.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(focusId)}"]`) : null;
    const shownKey = `${focusId ?? ''}|${focusKey ?? ''}`;
    if (found && s.shown !== shownKey) {
      showFound(found);
      s.shown = shownKey;
      s.initial = false;
    } else if (s.initial) {
      el.scrollTop = el.scrollHeight;
      s.initial = false;
    } else if (firstId !== s.firstId) {
      el.scrollTop = el.scrollHeight - s.fromBottom;
    } else if (lastKey !== s.lastKey) {
      // Newer pages loading below the reader (opened at a message) leave the view where it is.
      const mineLast = pending.length > 0 || messages.at(-1)?.senderId === me;
      if ((s.atBottom && !s.hasNewer) || mineLast) el.scrollTop = el.scrollHeight;
    }
    s.firstId = firstId;
    s.lastKey = lastKey;
    s.hasNewer = hasNewer;
    s.fromBottom = el.scrollHeight - el.scrollTop;
  });

  useLoadAtEdge(sentinel, scroller, 'top', hasOlder, loadingOlder, loadOlder);
  useLoadAtEdge(bottomSentinel, scroller, 'bottom', hasNewer, loadingNewer, loadNewer);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    state.current.fromBottom = el.scrollHeight - el.scrollTop;
    state.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  };

  return (
    <Box
      ref={scroller}
      onScroll={onScroll}
      tabIndex={0}
      role="log"
      aria-label={MSG.chat.historyLabel}
      style={{ flex: 1, minHeight: 0, overflowY: 'auto', padding: 'var(--mantine-spacing-md)' }}
    >
      <div ref={sentinel} />
      {loadingOlder && (
        <Center py="xs" role="status">
          <Loader size="sm" />
          <VisuallyHidden>{MSG.chat.loadingOlder}</VisuallyHidden>
        </Center>
      )}
      {rows.length === 0 ? (
        <Center h="100%">
          <Text c="dimmed" size="sm">
            {MSG.chat.empty}
          </Text>
        </Center>
      ) : (
        <Stack component="ol" gap={6} p={0} m={0} style={{ listStyle: 'none' }}>
          {rows.map((m) => {
            const held = byId.get(m.id);
            const quotedFrom = m.replyTo?.senderId;
            const bubble = (
              <MessageBubble
                key={m.id}
                message={m}
                showName={showNames}
                seen={m.id === seenId}
                onRetry={m.state === 'failed' ? () => onRetry(m.id) : undefined}
                actions={{
                  me,
                  onReply: held && onReply ? () => onReply(held) : undefined,
                  onJump,
                  quoteHidden: !!quotedFrom && quotedFrom !== me && !!foldFrom?.has(quotedFrom),
                }}
              />
            );
            return folded.has(m.id) ? <FoldedMessage key={m.id}>{bubble}</FoldedMessage> : bubble;
          })}
        </Stack>
      )}
      {loadingNewer && (
        <Center py="xs" role="status">
          <Loader size="sm" />
          <VisuallyHidden>{MSG.chat.loadingNewer}</VisuallyHidden>
        </Center>
      )}
      <div ref={bottomSentinel} />
    </Box>
  );
}
