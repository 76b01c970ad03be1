import { Box, CloseButton, Group, Text, UnstyledButton } from '@mantine/core';
import { Reply } from 'lucide-react';
import { quoteText, type MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';

/** The two lines of a quote: who wrote the original and its first line ("Photo", "Voice message", or deleted). */
function QuoteLines({ quote, hidden }: { quote: MessageQuote; hidden?: boolean }) {
  const text = hidden ? MSG.replies.blocked : quoteText(quote);
  return (
    <>
      {!quote.deleted && !hidden && (
        <Text size="xs" fw={600} lineClamp={1}>
          {quote.senderName}
        </Text>
      )}
      <Text size="xs" c="dimmed" lineClamp={1} fs={quote.deleted || hidden ? 'italic' : undefined}>
        {text}
      </Text>
    </>
  );
}

const quoteStyle = {
  display: 'block',
  borderLeft: '3px solid var(--mantine-color-indigo-5)',
  borderRadius: 'var(--mantine-radius-sm)',
  background: 'rgba(0, 0, 0, 0.05)',
  padding: '4px 8px',
  marginBottom: 4,
  maxWidth: '100%',
} as const;

/**
 * The quote at the top of a reply (issue 30): clicking it (or Enter on it) goes to the original, loading older
 * history when it is not loaded. A message from a student the reader blocked is not quoted in a group.
 */
export function ReplyQuote({
  quote,
  hidden,
  onJump,
}: {
  quote: MessageQuote;
  /** The original is from a student the reader blocked: its words stay folded. */
  hidden?: boolean;
  onJump?: () => void;
}) {
  const label = quote.deleted
    ? MSG.replies.jumpToDeleted
    : MSG.replies.jumpTo(hidden ? MSG.replies.blocked : (quote.senderName ?? ''));
  if (!onJump || quote.cursor === undefined) {
    return (
      <Box data-testid="reply-quote" style={quoteStyle}>
        <QuoteLines quote={quote} hidden={hidden} />
      </Box>
    );
  }
  return (
    <UnstyledButton data-testid="reply-quote" aria-label={label} onClick={onJump} style={quoteStyle}>
      <QuoteLines quote={quote} hidden={hidden} />
    </UnstyledButton>
  );
}

/** Above the composer while answering a message: what is answered, and ✕ to write a plain message instead. */
export function ReplyBar({ quote, onCancel }: { quote: MessageQuote; onCancel: () => void }) {
  return (
    <Group gap="xs" mb="xs" wrap="nowrap" align="center" data-testid="reply-bar" aria-live="polite">
      <Reply size={16} aria-hidden style={{ flexShrink: 0 }} />
      <Box style={{ ...quoteStyle, marginBottom: 0, flex: 1, minWidth: 0 }}>
        <Text size="xs" fw={600} lineClamp={1}>
          {MSG.replies.replyingTo(quote.deleted ? MSG.chat.deletedUser : (quote.senderName ?? ''))}
        </Text>
        <Text size="xs" c="dimmed" lineClamp={1}>
          {quoteText(quote)}
        </Text>
      </Box>
      <CloseButton size="sm" aria-label={MSG.replies.cancelReply} onClick={onCancel} />
    </Group>
  );
}
