import { Anchor, Box, Button, Group, Image, Paper, Text } from '@mantine/core';
import { Clock, RotateCw } from 'lucide-react';
import type { MessageType } from '@studybuddy/shared/chat';
import { MSG } from '@studybuddy/shared/messages';
import { MessageMenu } from '../moderation/index.ts';

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
}

const time = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

/** One message: text, an image (opens full size) or a voice message played inline. */
export function MessageBubble({
  message,
  showName,
  seen,
  onRetry,
}: {
  message: BubbleMessage;
  showName: boolean;
  seen: boolean;
  onRetry?: () => void;
}) {
  const { mine } = message;
  const body =
    message.type === 'image' ? (
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
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {message.content}
      </Text>
    );
  return (
    <Box
      component="li"
      data-testid="message"
      data-message-id={message.id}
      data-state={message.state ?? 'sent'}
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
        bg={mine ? 'indigo.0' : 'gray.1'}
        style={{ opacity: message.state === 'pending' ? 0.7 : 1 }}
      >
        {body}
      </Paper>
      <Group gap={6} px={4} wrap="nowrap">
        {message.state === 'pending' ? (
          <Text size="xs" c="dimmed" span>
            <Clock size={11} aria-hidden style={{ verticalAlign: -1 }} /> {MSG.chat.pending}
          </Text>
        ) : message.state === 'failed' ? (
          <>
            <Text size="xs" c="red.8" span role="alert">
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
            <Text size="xs" c="dimmed" span>
              {time(message.createdAt)}
              {seen ? ` · ${MSG.chat.seen}` : ''}
            </Text>
            {/* Others' messages can be reported from their menu. */}
            {!mine && <MessageMenu messageId={message.id} />}
          </>
        )}
      </Group>
    </Box>
  );
}
