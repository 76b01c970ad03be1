import { useEffect, useRef, useState } from 'react';
import { ActionIcon, Alert, Button, FileButton, Group, Image, SimpleGrid, Stack, Text } from '@mantine/core';
import { ImagePlus, X } from 'lucide-react';
import { UPLOAD_TARGETS } from '@studybuddy/shared/files';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { startUpload, UploadError, type UploadState, type UploadTask } from '../../lib/upload.ts';
import { UploadRow } from './upload-row.tsx';

interface Props {
  images: string[];
  onAdd: (urls: string[]) => void;
  onRemove: (url: string) => void;
}

interface Pending {
  name: string;
  percent: number;
  state: UploadState;
}

let counter = 0;

/**
 * Up to 4 additional images (requirements §5): Add Images uploads each (resumable above 256 KB); each can be removed.
 */
export function AdditionalImages({ images, onAdd, onRemove }: Props) {
  const [pending, setPending] = useState<Record<string, Pending>>({});
  const tasks = useRef(new Map<string, UploadTask>());
  const reset = useRef<() => void>(null);
  const [error, setError] = useState<string | null>(null);
  const busy = Object.keys(pending).length;

  useEffect(() => {
    const running = tasks.current;
    return () => running.forEach((task) => task.cancel());
  }, []);

  const uploadOne = async (file: File) => {
    const key = `upload-${++counter}`;
    const update = (p: Partial<Pending>) =>
      setPending((all) => (all[key] ? { ...all, [key]: { ...all[key], ...p } } : all));
    setPending((all) => ({ ...all, [key]: { name: file.name, percent: 0, state: 'running' } }));
    const task = startUpload(file, {
      target: UPLOAD_TARGETS.profileImage,
      filename: file.name,
      onProgress: (p) =>
        update({ percent: p.totalBytes ? (100 * p.bytesTransferred) / p.totalBytes : 0, state: p.state }),
    });
    tasks.current.set(key, task);
    try {
      onAdd([(await task.promise).url]);
    } catch (err) {
      if (!(err instanceof UploadError && err.code === 'canceled')) setError(MSG.profile.uploadFailed);
    } finally {
      tasks.current.delete(key);
      setPending(({ [key]: _done, ...rest }) => rest);
    }
  };

  const add = (files: File[]) => {
    reset.current?.();
    setError(null);
    if (!files.length) return;
    if (images.length + busy + files.length > LIMITS.additionalImages) {
      setError(MSG.profile.maxImages);
      return;
    }
    for (const file of files) void uploadOne(file);
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text fw={500} size="sm">
          {MSG.profile.fields.additionalImages}{' '}
          <Text span c="dimmed" size="sm">
            ({images.length}/{LIMITS.additionalImages})
          </Text>
        </Text>
        <FileButton onChange={add} accept="image/*" multiple resetRef={reset}>
          {(props) => (
            <Button {...props} variant="default" leftSection={<ImagePlus size={16} />}>
              {MSG.profile.addImages}
            </Button>
          )}
        </FileButton>
      </Group>
      {images.length > 0 && (
        <SimpleGrid cols={{ base: 2, xs: 4 }} spacing="sm">
          {images.map((url, i) => (
            <div key={url} style={{ position: 'relative' }}>
              <Image src={url} alt={`Additional image ${i + 1}`} radius="md" h={120} fit="cover" />
              <ActionIcon
                variant="filled"
                color="dark"
                radius="xl"
                size="sm"
                aria-label={`${MSG.profile.removeImage} ${i + 1}`}
                onClick={() => onRemove(url)}
                style={{ position: 'absolute', top: 6, right: 6 }}
              >
                <X size={14} />
              </ActionIcon>
            </div>
          ))}
        </SimpleGrid>
      )}
      {Object.entries(pending).map(([key, p]) => (
        <UploadRow
          key={key}
          name={p.name}
          percent={p.percent}
          state={p.state}
          onPause={() => tasks.current.get(key)?.pause()}
          onResume={() => tasks.current.get(key)?.resume()}
          onCancel={() => tasks.current.get(key)?.cancel()}
        />
      ))}
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
