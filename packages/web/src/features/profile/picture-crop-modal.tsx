import { useEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Alert, Group, Modal, Progress, Slider, Stack, Text, Tooltip } from '@mantine/core';
import { RotateCcw, RotateCw } from 'lucide-react';
import ReactCrop, {
  centerCrop,
  convertToPixelCrop,
  makeAspectCrop,
  type PercentCrop,
  type PixelCrop,
} from 'react-image-crop';
import 'react-image-crop/dist/ReactCrop.css';
import { UPLOAD_TARGETS, type UploadedFile } from '@studybuddy/shared/files';
import { LIMITS } from '@studybuddy/shared/limits';
import { MSG } from '@studybuddy/shared/messages';
import { startUpload, type UploadTask } from '../../lib/upload.ts';
import { FormActions } from '../../ui/form-actions.tsx';
import { exportCroppedJpeg } from './crop-image.ts';

// Requirements §9: keyboard nudge 1, 10 with Shift, 100 with Ctrl or Cmd.
const [NUDGE, NUDGE_SHIFT, NUDGE_CTRL] = LIMITS.crop.nudge;
ReactCrop.nudgeStep = NUDGE;
ReactCrop.nudgeStepMedium = NUDGE_SHIFT;
ReactCrop.nudgeStepLarge = NUDGE_CTRL;

/** The two quarter turns, left (three quarters to the right) and right. */
const ROTATIONS = [
  { label: MSG.profile.crop.rotateLeft, turn: 270, Icon: RotateCcw },
  { label: MSG.profile.crop.rotateRight, turn: 90, Icon: RotateCw },
];

interface Props {
  file: File;
  onClose: () => void;
  onUploaded: (file: UploadedFile) => void;
}

/** Round crop with drag, resize, keyboard nudge, zoom 1–3 (step 0.1) and rotation; uploads a JPEG at quality 0.95. */
export function PictureCropModal({ file, onClose, onUploaded }: Props) {
  const src = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(src), [src]);
  const imgRef = useRef<HTMLImageElement>(null);
  const task = useRef<UploadTask | null>(null);
  const [crop, setCrop] = useState<PercentCrop>();
  const [pixels, setPixels] = useState<PixelCrop>();
  const [zoom, setZoom] = useState<number>(LIMITS.crop.zoomMin);
  const [rotation, setRotation] = useState(0);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unreadable, setUnreadable] = useState(false);

  useEffect(() => () => void task.current?.cancel(), []);

  const onLoad = (e: React.SyntheticEvent<HTMLImageElement>) => {
    const { width, height } = e.currentTarget;
    // A centred circle over 80% of the shorter side, so every handle starts inside the picture.
    const percent = (80 * Math.min(width, height)) / width;
    const initial = centerCrop(makeAspectCrop({ unit: '%', width: percent }, 1, width, height), width, height);
    setCrop(initial);
    setPixels(convertToPixelCrop(initial, width, height));
  };

  const apply = async () => {
    const image = imgRef.current;
    if (!image || !pixels?.width) return;
    setError(null);
    setProgress(0);
    try {
      const blob = await exportCroppedJpeg(image, pixels, zoom, rotation);
      task.current = startUpload(blob, {
        target: UPLOAD_TARGETS.profileImage,
        filename: 'profile-picture.jpg',
        onProgress: (p) => setProgress(p.totalBytes ? (100 * p.bytesTransferred) / p.totalBytes : 0),
      });
      const uploaded = await task.current.promise;
      task.current = null;
      onUploaded(uploaded);
    } catch {
      task.current = null;
      setProgress(null);
      setError(MSG.profile.uploadFailed);
    }
  };

  const busy = progress !== null;
  return (
    <Modal
      opened
      onClose={onClose}
      title={MSG.profile.crop.title}
      size="lg"
      centered
      closeOnClickOutside={!busy}
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <Stack>
        <Text size="sm" c="dimmed" id="crop-help">
          {MSG.profile.crop.help}
        </Text>
        {unreadable ? (
          <Alert color="red" role="alert">
            {MSG.files.notAnImage}
          </Alert>
        ) : (
          <div
            style={{
              display: 'flex',
              justifyContent: 'center',
              overflow: 'hidden',
              background: 'var(--mantine-color-default-hover)',
            }}
          >
            <ReactCrop
              crop={crop}
              onChange={(_, percent) => setCrop(percent)}
              onComplete={(px) => setPixels(px)}
              aspect={1}
              circularCrop
              keepSelection
              minWidth={40}
              disabled={busy}
            >
              <img
                ref={imgRef}
                src={src}
                alt="Picture to crop"
                aria-describedby="crop-help"
                onLoad={onLoad}
                onError={() => setUnreadable(true)}
                style={{
                  display: 'block',
                  maxHeight: '50vh',
                  maxWidth: '100%',
                  transform: `scale(${zoom}) rotate(${rotation}deg)`,
                }}
              />
            </ReactCrop>
          </div>
        )}
        <Group gap="md" wrap="nowrap" align="center">
          <Text size="sm" fw={500}>
            {MSG.profile.crop.zoom}
          </Text>
          <Slider
            style={{ flex: 1 }}
            min={LIMITS.crop.zoomMin}
            max={LIMITS.crop.zoomMax}
            step={LIMITS.crop.zoomStep}
            value={zoom}
            onChange={setZoom}
            label={(v) => `${v.toFixed(1)}×`}
            thumbLabel={MSG.profile.crop.zoom}
            disabled={busy || unreadable}
          />
          {ROTATIONS.map(({ label, turn, Icon }) => (
            <Tooltip key={label} label={label}>
              <ActionIcon
                variant="default"
                size="lg"
                aria-label={label}
                onClick={() => setRotation((r) => (r + turn) % 360)}
                disabled={busy || unreadable}
              >
                <Icon size={18} />
              </ActionIcon>
            </Tooltip>
          ))}
        </Group>
        {busy && <Progress value={progress} aria-label={MSG.profile.uploading} animated />}
        <FormActions
          error={error}
          cancelLabel={MSG.profile.cancel}
          onCancel={onClose}
          confirmLabel={MSG.profile.crop.apply}
          onConfirm={() => void apply()}
          pending={busy}
          disabled={unreadable || !pixels?.width}
        />
      </Stack>
    </Modal>
  );
}
