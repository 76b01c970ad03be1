import { ActionIcon, Group, Progress, Stack, Text } from '@mantine/core';
import { Pause, Play, X } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import type { UploadState } from '../../lib/upload.ts';

interface Props {
  name: string;
  percent: number;
  state: UploadState;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}

/** One running upload: name, progress, pause/resume and cancel. */
export function UploadRow({ name, percent, state, onPause, onResume, onCancel }: Props) {
  const paused = state === 'paused' || state === 'pausing';
  return (
    <Group gap="xs" wrap="nowrap" role="group" aria-label={name}>
      <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text size="xs" truncate>
            {name}
          </Text>
          <Text size="xs" c="dimmed">
            {paused ? MSG.files.paused : `${Math.floor(percent)}%`}
          </Text>
        </Group>
        <Progress value={percent} animated={!paused} aria-label={`${MSG.profile.uploading} ${name}`} />
      </Stack>
      <ActionIcon
        variant="default"
        aria-label={paused ? MSG.files.resume : MSG.files.pause}
        onClick={paused ? onResume : onPause}
        disabled={state === 'pausing' || state === 'canceling'}
      >
        {paused ? <Play size={14} /> : <Pause size={14} />}
      </ActionIcon>
      <ActionIcon variant="default" aria-label={MSG.files.cancel} onClick={onCancel} disabled={state === 'canceling'}>
        <X size={14} />
      </ActionIcon>
    </Group>
  );
}
