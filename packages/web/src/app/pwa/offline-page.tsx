import { useEffect, useState } from 'react';
import { Badge, Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Image, Mic, RefreshCw, WifiOff } from 'lucide-react';
import { PWA_MSG as MSG } from '@studybuddy/shared/messages/pwa';
import { readStoredOutbox, type StoredOutboxEntry } from '../../features/conversations/index.ts';
import { formatWhen } from '../../lib/date-format.ts';
import { lastUser } from './last-user.ts';

function EntryText({ entry }: { entry: StoredOutboxEntry }) {
  if (entry.type === 'image')
    return (
      <Group gap={6}>
        <Image size={16} aria-hidden /> {MSG.offline.image}
      </Group>
    );
  if (entry.type === 'voice')
    return (
      <Group gap={6}>
        <Mic size={16} aria-hidden /> {MSG.offline.voice}
      </Group>
    );
  return <>{entry.text}</>;
}

/**
 * Shown when the app started but cannot reach the server (the service worker served the app shell offline):
 * says so, lists the messages waiting in this browser's outbox, and tries again by itself once back online.
 */
export default function OfflinePage({ onRetry }: { onRetry: () => void }) {
  const [entries] = useState(() => {
    const user = lastUser();
    return user ? readStoredOutbox(user) : [];
  });
  useEffect(() => {
    window.addEventListener('online', onRetry);
    return () => window.removeEventListener('online', onRetry);
  }, [onRetry]);

  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder radius="lg" p="xl" w="100%" maw={560}>
        <Stack gap="md">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon size={44} radius="xl" variant="light" aria-hidden>
              <WifiOff size={24} />
            </ThemeIcon>
            <Title order={1} size="h2">
              {MSG.offline.title}
            </Title>
          </Group>
          <Text>{MSG.offline.body}</Text>
          <Stack gap="xs" component="section" aria-labelledby="outbox-title">
            <Title order={2} size="h4" id="outbox-title">
              {MSG.offline.outboxTitle}
            </Title>
            <Text size="sm" c="dimmed">
              {entries.length ? MSG.offline.outboxCount(entries.length) : MSG.offline.outboxEmpty}
            </Text>
            {entries.length > 0 && (
              <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
                {entries.map((entry) => (
                  <Paper key={entry.id} component="li" withBorder p="sm" radius="md">
                    <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                      <Badge variant="light" color={entry.conversation.kind === 'group' ? 'grape' : 'indigo'}>
                        {entry.conversation.kind === 'group' ? MSG.offline.toGroup : MSG.offline.toFriend}
                      </Badge>
                      <Group gap="xs" wrap="nowrap">
                        {entry.status === 'failed' && (
                          <Badge color="red" variant="light">
                            {MSG.offline.failed}
                          </Badge>
                        )}
                        <Text size="xs" c="dimmed">
                          {formatWhen(entry.createdAt)}
                        </Text>
                      </Group>
                    </Group>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }} lineClamp={3}>
                      <EntryText entry={entry} />
                    </Text>
                  </Paper>
                ))}
              </Stack>
            )}
          </Stack>
          <Group>
            <Button leftSection={<RefreshCw size={16} aria-hidden />} onClick={onRetry}>
              {MSG.offline.retry}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}
