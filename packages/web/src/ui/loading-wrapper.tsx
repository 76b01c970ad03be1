import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Anchor, Center, Loader, Stack, Text } from '@mantine/core';
import { CircleAlert } from 'lucide-react';
import { FIRST_LOAD_LIMITS as LIMITS } from '@studybuddy/shared/limits/first-load';
import { PUBLIC_MSG as MSG } from '@studybuddy/shared/messages/public';

interface Props {
  loading: boolean;
  error?: unknown;
  message: string;
  /** Fills its parent's height (a pane) instead of taking most of the page's. */
  fill?: boolean;
  children?: ReactNode;
}

/**
 * The app's one loading and error state: a progress message, after 5 s a slow-server notice, after 15 s a retry
 * link; an Error box on failure. Its children show once loaded.
 */
export function LoadingWrapper({ loading, error, message, fill, children }: Props) {
  const [elapsed, setElapsed] = useState<'fresh' | 'slow' | 'retry'>('fresh');
  useEffect(() => {
    if (!loading) return;
    const slow = setTimeout(() => setElapsed('slow'), LIMITS.loadingSlowMs);
    const retry = setTimeout(() => setElapsed('retry'), LIMITS.loadingRetryMs);
    return () => {
      clearTimeout(slow);
      clearTimeout(retry);
      setElapsed('fresh');
    };
  }, [loading]);

  if (error) {
    return (
      <Alert color="red" title={MSG.loading.error} icon={<CircleAlert size={18} />} m="md" role="alert">
        {error instanceof Error ? error.message : String(error)}
      </Alert>
    );
  }
  if (!loading) return <>{children}</>;
  return (
    <Center {...(fill ? { h: '100%' } : { mih: '60vh' })} role="status" aria-live="polite">
      <Stack align="center" gap="xs" maw={360} ta="center">
        <Loader />
        <Text>{message}</Text>
        {elapsed !== 'fresh' && (
          <>
            <Text fw={600}>{MSG.loading.slow}</Text>
            <Text size="sm" c="dimmed">
              {MSG.loading.slowNote}
            </Text>
          </>
        )}
        {elapsed === 'retry' && (
          <Anchor component="button" type="button" onClick={() => window.location.reload()}>
            {MSG.loading.retry}
          </Anchor>
        )}
      </Stack>
    </Center>
  );
}
