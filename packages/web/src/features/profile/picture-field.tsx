import { useRef, useState } from 'react';
import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { Camera } from 'lucide-react';
import { MSG } from '@studybuddy/shared/messages';
import { PictureCropModal } from './picture-crop-modal.tsx';

interface Props {
  picture: string;
  custom: boolean;
  onUploaded: (url: string) => void;
}

/** The profile picture with its upload button; a chosen image goes through the round crop tool first. */
export function PictureField({ picture, custom, onUploaded }: Props) {
  const [file, setFile] = useState<File | null>(null);
  const reset = useRef<() => void>(null);
  const close = () => {
    setFile(null);
    reset.current?.();
  };
  return (
    <Group gap="md">
      <Avatar src={picture} size={96} radius={999} alt={MSG.profile.fields.picture} />
      <Stack gap={6} align="flex-start" style={{ minWidth: 0 }}>
        <Text fw={500} size="sm">
          {MSG.profile.fields.picture}
        </Text>
        <FileButton onChange={setFile} accept="image/*" resetRef={reset}>
          {(props) => (
            <Button {...props} variant="default" leftSection={<Camera size={16} />}>
              {custom ? MSG.profile.changePicture : MSG.profile.uploadPicture}
            </Button>
          )}
        </FileButton>
        {!custom && (
          <Text size="xs" c="dimmed" maw={260}>
            {MSG.profile.customPicture}
          </Text>
        )}
      </Stack>
      {file && (
        <PictureCropModal
          key={`${file.name}-${file.lastModified}`}
          file={file}
          onClose={close}
          onUploaded={(uploaded) => {
            onUploaded(uploaded.url);
            close();
          }}
        />
      )}
    </Group>
  );
}
