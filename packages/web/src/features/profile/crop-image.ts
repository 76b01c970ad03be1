import type { PixelCrop } from 'react-image-crop';
import { LIMITS } from '@studybuddy/shared/limits';
import { PROFILE_LIMITS } from '@studybuddy/shared/profile';

/**
 * Draws the part of `image` under the crop (in the image's displayed pixels), after the zoom and rotation
 * shown on screen (both about the image centre), into a square JPEG of at most PROFILE_LIMITS.pictureExportPx
 * per side at quality 0.95 (requirements §9).
 */
export async function exportCroppedJpeg(
  image: HTMLImageElement,
  crop: PixelCrop,
  zoom: number,
  rotateDeg: number,
): Promise<Blob> {
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const cropW = crop.width * scaleX;
  const cropH = crop.height * scaleY;
  const side = Math.max(1, Math.round(Math.min(cropW, PROFILE_LIMITS.pictureExportPx)));
  const fit = side / cropW;

  const canvas = document.createElement('canvas');
  canvas.width = side;
  canvas.height = Math.max(1, Math.round(cropH * fit));
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas unavailable');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.imageSmoothingQuality = 'high';

  const cx = image.naturalWidth / 2;
  const cy = image.naturalHeight / 2;
  ctx.scale(fit, fit);
  ctx.translate(-crop.x * scaleX, -crop.y * scaleY);
  ctx.translate(cx, cy);
  ctx.rotate((rotateDeg * Math.PI) / 180);
  ctx.scale(zoom, zoom);
  ctx.translate(-cx, -cy);
  ctx.drawImage(image, 0, 0, image.naturalWidth, image.naturalHeight);

  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('could not encode the picture'))),
      'image/jpeg',
      LIMITS.crop.jpegQuality,
    ),
  );
}
