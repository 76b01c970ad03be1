import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Box, Text } from '@mantine/core';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { peerOf, type ConversationRef } from '@studybuddy/shared/chat';
import type { MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { conversationTopic, REALTIME_TIMING } from '@studybuddy/shared/realtime';
import { useRealtimeEvent, useRealtimeTopic } from '../../lib/realtime.ts';
import { LoadingWrapper } from '../../ui/loading-wrapper.tsx';
import { useBlockedIds } from '../blocks/index.ts';
import { conversationsApi, conversationKeys, type HistoryParam } from './conversations-api.ts';
import { Composer } from './composer.tsx';
import { applyChatUnread } from './live-handlers.ts';
import { markOpen, quoteOf } from './message-cache.ts';
import { MessageList } from './message-list.tsx';
import { outbox, useOutbox } from './outbox.ts';

interface Props {
  conversation: ConversationRef;
  me: { id: string; name: string };
  header: ReactNode;
  /** One-to-one chats: the friend's last read message, for the 'Seen' mark. */
  peerLastRead?: number;
  /** Groups show who wrote each message. */
  showNames: boolean;
  /** Opens the history at this message (its cursor: a search result), shows it and highlights it. */
  focusCursor?: number;
  /**
   * A conversation the student only reads (a chat with a student they blocked): no live topic, and this in the
   * composer's place.
   */
  readOnly?: ReactNode;
}

/**
 * A conversation on screen: its history (older pages load when scrolled to the top; opened at a message, newer
 * pages load when scrolled to the bottom), this tab's pending messages, who is typing, and the composer. While on
 * screen its messages count as read.
 */
export function ConversationView({ conversation, me, header, peerLastRead, showNames, focusCursor, readOnly }: Props) {
  const client = useQueryClient();
  const { kind, id } = conversation;
  const [focus, setFocus] = useState(focusCursor);
  const history = useInfiniteQuery({
    queryKey:
      focus === undefined ? conversationKeys.messages(conversation) : conversationKeys.messagesAt(conversation, focus),
    queryFn: ({ pageParam }) => conversationsApi.history(conversation, pageParam),
    initialPageParam: (focus === undefined ? {} : { around: focus }) as HistoryParam,
    getNextPageParam: (oldest): HistoryParam | undefined => {
      const first = oldest.messages[0];
      return oldest.hasMore && first ? { before: first.cursor } : undefined;
    },
    getPreviousPageParam: (newest): HistoryParam | undefined => {
      const last = newest.messages.at(-1);
      return newest.hasNewer && last ? { after: last.cursor } : undefined;
    },
    staleTime: Infinity,
  });
  const pending = useOutbox(conversation);
  // Sending while the newest messages are not loaded: back to the newest page, where the message will show.
  const [pendingCount, setPendingCount] = useState(pending.length);
  if (pending.length !== pendingCount) {
    setPendingCount(pending.length);
    if (pending.length > pendingCount && history.hasPreviousPage) setFocus(undefined);
  }
  const [typing, setTyping] = useState<{ userId: string; name: string; until: number } | null>(null);
  // Issue 30: the message the next one answers, and the message a reply's quote went to (`n` shows it again).
  const [replyTo, setReplyTo] = useState<MessageQuote | null>(null);
  const [jumped, setJumped] = useState<{ id: string; n: number } | null>(null);

  useEffect(() => markOpen({ kind, id }), [kind, id]);
  // Students the reader blocked: their group messages are folded and their typing is not shown (issue 24).
  const blocked = useBlockedIds();
  useRealtimeTopic(readOnly ? null : conversationTopic({ kind, id }));
  useRealtimeEvent('typing', (e) => {
    if (e.conversation.kind !== kind || e.conversation.id !== id || e.userId === me.id) return;
    if (blocked.has(e.userId)) return;
    setTyping({ userId: e.userId, name: e.name, until: Date.now() + REALTIME_TIMING.typingShowMs });
  });
  // Their message arrived: they are no longer typing it.
  useRealtimeEvent('message.created', ({ message }) => {
    if (message.conversation.kind === kind && message.conversation.id === id && message.senderId === typing?.userId) {
      setTyping(null);
    }
  });
  useEffect(() => {
    if (!typing) return;
    const t = setTimeout(() => setTyping(null), typing.until - Date.now());
    return () => clearTimeout(t);
  }, [typing]);

  // Opening the conversation, and every new message of others while it is on screen, moves the read position.
  const newestOther = history.data?.pages[0]?.messages.findLast((m) => m.senderId !== me.id)?.cursor ?? 0;
  const marked = useRef(-1);
  useEffect(() => {
    marked.current = -1;
  }, [kind, id]);
  useEffect(() => {
    if (!history.data) return;
    const read = () => {
      if (document.visibilityState !== 'visible' || marked.current >= newestOther) return;
      marked.current = newestOther;
      conversationsApi.markRead({ kind, id }).then(
        ({ unread }) => {
          // The server's count (its unread.changed says the same; this also holds while the socket is down).
          const friendId = kind === 'chat' ? peerOf(id, me.id) : null;
          if (friendId) applyChatUnread(client, id, friendId, unread);
        },
        () => {
          marked.current = -1;
        },
      );
    };
    read();
    document.addEventListener('visibilitychange', read);
    return () => document.removeEventListener('visibilitychange', read);
  }, [client, history.data, kind, id, me.id, newestOther]);

  const confirmed = history.data ? [...history.data.pages].reverse().flatMap((p) => p.messages) : [];
  const known = new Set(confirmed.map((m) => m.id));
  const focusId = jumped?.id ?? (focus === undefined ? undefined : confirmed.find((m) => m.cursor === focus)?.id);
  // A quote goes to its original: at once when loaded, else the history opens around it (as a search result does).
  const jump = (quote: MessageQuote) => {
    if (quote.cursor === undefined) return;
    setJumped((j) => ({ id: quote.id, n: (j?.n ?? 0) + 1 }));
    if (!known.has(quote.id)) setFocus(quote.cursor);
  };

  return (
    <Box style={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      {header}
      <Box style={{ flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' }}>
        {history.isPending || history.error ? (
          <LoadingWrapper loading={history.isPending} error={history.error} message={MSG.loading.loading} />
        ) : (
          <MessageList
            me={me.id}
            messages={confirmed}
            pending={pending.filter((p) => !known.has(p.id))}
            peerLastRead={peerLastRead}
            showNames={showNames}
            hasOlder={history.hasNextPage}
            loadingOlder={history.isFetchingNextPage}
            loadOlder={() => void history.fetchNextPage()}
            hasNewer={history.hasPreviousPage}
            loadingNewer={history.isFetchingPreviousPage}
            loadNewer={() => void history.fetchPreviousPage()}
            focusId={focusId}
            focusKey={jumped ? `jump-${jumped.n}` : undefined}
            onReply={readOnly ? undefined : (m) => setReplyTo(quoteOf(m))}
            onJump={jump}
            foldFrom={kind === 'group' ? blocked : undefined}
            onRetry={(entryId) => outbox.retry(entryId)}
          />
        )}
      </Box>
      <Box h={22} px="md" aria-live="polite">
        {typing && (
          <Text size="xs" c="dimmed" fs="italic">
            {MSG.chat.typing(typing.name)}
          </Text>
        )}
      </Box>
      {readOnly ?? (
        <Composer conversation={conversation} me={me} replyTo={replyTo} onCancelReply={() => setReplyTo(null)} />
      )}
    </Box>
  );
}
