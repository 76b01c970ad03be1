import { Alert, Button, CopyButton, Group, Loader, Modal, Stack, Text, TextInput } from '@mantine/core';
import { Check, Copy, RefreshCw, Trash2 } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { useCalendarFeed, useRegenerateFeed, useRevokeFeed } from './calendar-api.ts';

/** The private .ics subscription address: show, copy, regenerate, revoke. */
export function FeedModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const feed = useCalendarFeed(opened);
  const regenerate = useRegenerateFeed();
  const revoke = useRevokeFeed();
  const url = feed.data?.url ?? null;
  const error = feed.error ?? regenerate.error ?? revoke.error;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={MSG.calendar.feedTitle}
      centered
      size="lg"
      closeButtonProps={{ 'aria-label': MSG.calendar.close }}
    >
      <Stack gap="md">
        <Text size="sm">{MSG.calendar.feedIntro}</Text>
        {feed.isPending ? (
          <Group justify="center" role="status">
            <Loader size="sm" aria-label={MSG.loading.loading} />
          </Group>
        ) : url ? (
          <>
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label={MSG.calendar.feedUrlLabel}
                value={url}
                readOnly
                onFocus={(e) => e.currentTarget.select()}
                style={{ flex: 1, minWidth: 0 }}
              />
              <CopyButton value={url}>
                {({ copied, copy }) => (
                  <Button
                    variant={copied ? 'filled' : 'default'}
                    color={copied ? 'teal' : undefined}
                    leftSection={copied ? <Check size={16} aria-hidden /> : <Copy size={16} aria-hidden />}
                    onClick={copy}
                  >
                    {copied ? MSG.calendar.feedCopied : MSG.calendar.feedCopy}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Alert color="yellow">{MSG.calendar.feedWarning}</Alert>
            <Group justify="flex-end" gap="xs">
              <Button
                variant="default"
                leftSection={<RefreshCw size={16} aria-hidden />}
                loading={regenerate.isPending}
                onClick={() =>
                  regenerate.mutate(undefined, {
                    onSuccess: () => toast.success(MSG.calendar.feedRegenerated),
                  })
                }
              >
                {MSG.calendar.feedRegenerate}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<Trash2 size={16} aria-hidden />}
                loading={revoke.isPending}
                onClick={() => revoke.mutate(undefined, { onSuccess: () => toast.success(MSG.calendar.feedRevoked) })}
              >
                {MSG.calendar.feedRevoke}
              </Button>
            </Group>
          </>
        ) : (
          <>
            <Text size="sm" c="dimmed">
              {MSG.calendar.feedNone}
            </Text>
            <Group justify="flex-end">
              <Button loading={regenerate.isPending} onClick={() => regenerate.mutate()}>
                {MSG.calendar.feedCreate}
              </Button>
            </Group>
          </>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error.message}
          </Alert>
        )}
      </Stack>
    </Modal>
  );
}
