import { useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { CheckCircle2, Link2, Unlink } from 'lucide-react';
import type { CourseRefOut } from '@studybuddy/shared/lms';
import { MSG } from '@studybuddy/shared/messages';
import { toast } from '../../ui/toast.ts';
import { useSession } from '../auth/index.ts';
import { FeatureModal, TokenModal } from './connect-modals.tsx';
import { useDisconnectCanvas, useLmsStatus } from './lms-api.ts';

interface Props {
  /** Called with the profile's courses after an import (an edit form holding courses should take them). */
  onImported?: (courses: CourseRefOut[]) => void;
}

/**
 * The profile's LMS integration section (requirements §2): Connect Canvas → feature modal (terms ticked) → token
 * modal → import; when connected, Disconnect (clears token, address and cached coursework).
 */
export function LmsSection({ onImported }: Props) {
  const session = useSession();
  const userId = session.data?.user?.id;
  const status = useLmsStatus(!!userId);
  const disconnect = useDisconnectCanvas(userId);
  const [step, setStep] = useState<'idle' | 'feature' | 'token'>('idle');

  const onDisconnect = () =>
    disconnect.mutate(undefined, {
      onSuccess: () => toast.neutral(MSG.lms.disconnected),
      onError: () => toast.error(MSG.lms.disconnectFailed),
    });

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="lms-section-title">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4" id="lms-section-title">
            {MSG.lms.sectionTitle}
          </Title>
          {status.data?.connected && (
            <Badge color="green" variant="light" c="bright" leftSection={<CheckCircle2 size={12} aria-hidden />}>
              {MSG.lms.connectedTitle}
            </Badge>
          )}
        </Group>
        {status.isPending ? (
          <Loader size="sm" aria-label={MSG.loading.loading} />
        ) : status.error ? (
          <Alert color="red" role="alert">
            {status.error.message}
          </Alert>
        ) : !status.data.available ? (
          <Alert color="yellow" role="status">
            {MSG.lms.urlUnavailable}
          </Alert>
        ) : status.data.connected ? (
          <Group justify="space-between" align="center">
            <Text size="sm" style={{ flex: 1, minWidth: 200 }}>
              {MSG.lms.connectedNote}
            </Text>
            <Button
              type="button"
              variant="light"
              color="red"
              leftSection={<Unlink size={16} aria-hidden />}
              loading={disconnect.isPending}
              onClick={onDisconnect}
            >
              {MSG.lms.disconnect}
            </Button>
          </Group>
        ) : (
          <Group justify="space-between" align="center">
            <Text size="sm" style={{ flex: 1, minWidth: 200 }}>
              {MSG.lms.notConnectedNote}
            </Text>
            <Button type="button" leftSection={<Link2 size={16} aria-hidden />} onClick={() => setStep('feature')}>
              {MSG.lms.connect}
            </Button>
          </Group>
        )}
      </Stack>
      <FeatureModal
        key={step === 'idle' ? 'closed' : 'open'}
        opened={step === 'feature'}
        onClose={() => setStep('idle')}
        onAccept={() => setStep('token')}
      />
      <TokenModal
        opened={step === 'token'}
        onClose={() => setStep('idle')}
        onBack={() => setStep('feature')}
        onConnected={(result) => {
          setStep('idle');
          toast.success(MSG.lms.imported(result.imported.length));
          onImported?.(result.courses);
        }}
      />
    </Paper>
  );
}
