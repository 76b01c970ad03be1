import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Box, Button, CloseButton, FileButton, Group, Image, Text, Textarea, Tooltip } from '@mantine/core';
import { ImagePlus, Mic, SendHorizontal, Square, X } from 'lucide-react';
import { CHAT_LIMITS, type ConversationRef } from '@studybuddy/shared/chat';
import type { MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { REALTIME_TIMING } from '@studybuddy/shared/realtime';
import { realtime } from '../../lib/realtime.ts';
import { toast } from '../../ui/toast.ts';
import { newId } from './new-id.ts';
import { ReplyBar } from './reply-quote.tsx';
import { outbox } from './outbox.ts';
import { useVoiceRecorder } from './use-voice-recorder.ts';

interface Props {
  conversation: ConversationRef;
  me: { id: string; name: string };
  /** The message the next one answers (issue 30), chosen with Reply; cancelled with its ✕ or Escape. */
  replyTo?: MessageQuote | null;
  onCancelReply?: () => void;
}

/** Requirements §5: chat attachments must be images under 5 MB. */
export function imageProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return MSG.chat.invalidImage;
  if (file.size >= CHAT_LIMITS.imageMaxBytes) return MSG.chat.imageTooLarge;
  return null;
}

/**
 * The message input: text (Enter sends, Shift+Enter a new line), an image attachment (image + text makes two
 * messages) and voice recording. Messages go to the outbox, which sends them in order and again after failures.
 */
export function Composer({ conversation, me, replyTo, onCancelReply }: Props) {
  const [text, setText] = useState('');
  const [image, setImage] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const lastTyping = useRef(0);
  const resetFile = useRef<() => void>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  // Reply puts the cursor here, ready to answer.
  useEffect(() => {
    if (replyTo) input.current?.focus();
  }, [replyTo]);
  const preview = useMemo(() => (image ? URL.createObjectURL(image) : null), [image]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const reply = replyTo ? { replyTo } : {};
  const base = { conversation, senderId: me.id, senderName: me.name, ...reply };
  const onRecorded = useCallback(
    (wav: Blob) => {
      outbox.add({
        id: newId(),
        type: 'voice',
        file: wav,
        localUrl: URL.createObjectURL(wav),
        conversation,
        senderId: me.id,
        senderName: me.name,
        ...(replyTo ? { replyTo } : {}),
      });
      onCancelReply?.();
    },
    [conversation, me.id, me.name, replyTo, onCancelReply],
  );
  const onMicError = useCallback(() => toast.error(MSG.chat.micFailed), []);
  const voice = useVoiceRecorder(onRecorded, onMicError);

  const pick = (file: File | null) => {
    resetFile.current?.();
    if (!file) return;
    const issue = imageProblem(file);
    setProblem(issue);
    setImage(issue ? null : file);
  };

  const canSend = !!text.trim() || !!image;
  const send = () => {
    if (!canSend) return;
    if (image) outbox.add({ id: newId(), type: 'image', file: image, localUrl: URL.createObjectURL(image), ...base });
    if (text.trim()) outbox.add({ id: newId(), type: 'text', text: text.trim(), ...base });
    onCancelReply?.();
    setText('');
    setImage(null);
    setProblem(null);
  };

  const onType = (value: string) => {
    setText(value);
    const now = Date.now();
    if (value && now - lastTyping.current > REALTIME_TIMING.typingThrottleMs) {
      lastTyping.current = now;
      realtime.send({ op: 'typing', conversation });
    }
  };

  if (voice.recording) {
    return (
      <Group
        p="sm"
        gap="sm"
        justify="space-between"
        wrap="nowrap"
        style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
      >
        <Group gap="xs" role="status" aria-live="polite">
          <Box w={10} h={10} bg="red.7" style={{ borderRadius: '50%' }} aria-hidden />
          <Text size="sm" fw={600}>
            {MSG.chat.recording(voice.seconds)}
          </Text>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <Button variant="default" leftSection={<X size={16} aria-hidden />} onClick={voice.cancel}>
            {MSG.chat.cancelRecording}
          </Button>
          <Button color="red" leftSection={<Square size={14} aria-hidden />} onClick={voice.stopAndSend}>
            {MSG.chat.stopAndSend}
          </Button>
        </Group>
      </Group>
    );
  }

  return (
    <Box p="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      {replyTo && <ReplyBar quote={replyTo} onCancel={() => onCancelReply?.()} />}
      {preview && (
        <Group gap="xs" mb="xs" align="flex-start">
          <Image src={preview} alt={image?.name ?? ''} h={72} w="auto" radius="sm" />
          <CloseButton size="sm" aria-label={MSG.chat.removeImage} onClick={() => setImage(null)} />
        </Group>
      )}
      {problem && (
        <Text size="sm" c="var(--mantine-color-error)" mb="xs" role="alert">
          {problem}
        </Text>
      )}
      <Group gap="xs" wrap="nowrap" align="flex-end">
        <FileButton onChange={pick} accept="image/*" resetRef={resetFile}>
          {(props) => (
            <Tooltip label={MSG.chat.attachImage}>
              <ActionIcon {...props} variant="default" size="lg" aria-label={MSG.chat.attachImage}>
                <ImagePlus size={18} aria-hidden />
              </ActionIcon>
            </Tooltip>
          )}
        </FileButton>
        <Tooltip label={MSG.chat.record}>
          <ActionIcon variant="default" size="lg" aria-label={MSG.chat.record} onClick={() => void voice.start()}>
            <Mic size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
        <Textarea
          aria-label={MSG.chat.messageLabel}
          placeholder={MSG.chat.placeholder}
          value={text}
          onChange={(e) => onType(e.currentTarget.value)}
          ref={input}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && replyTo) {
              e.preventDefault();
              onCancelReply?.();
            } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
          autosize
          minRows={1}
          maxRows={5}
          maxLength={CHAT_LIMITS.textMaxChars}
          style={{ flex: 1 }}
        />
        <Tooltip label={MSG.chat.send}>
          <ActionIcon size="lg" aria-label={MSG.chat.send} onClick={send} disabled={!canSend}>
            <SendHorizontal size={18} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Box>
  );
}
