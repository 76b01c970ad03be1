import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { MSG } from '@studybuddy/shared/messages';
import { loadLimits } from '../../config.ts';
import { AppError, badRequest } from '../../platform/errors.ts';
import { SNIFF_BYTES } from './sniff.ts';

/** Image formats we decode; decided by the bytes, never by the name or the declared type (SVG is never accepted). */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);

export interface EncodedImage {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  width: number;
  height: number;
}

/** True when the bytes are an image format we accept (judged by their first bytes only). */
export async function isDecodableImage(data: Buffer): Promise<boolean> {
  const type = await fileTypeFromBuffer(data.subarray(0, SNIFF_BYTES));
  return !!type && DECODABLE.has(type.mime);
}

/** An image's pixel count (its first frame: all that is decoded) from its header alone. */
async function declaredPixels(data: Buffer): Promise<number> {
  const meta = await sharp(data, { limitInputPixels: false }).metadata();
  return (meta.width ?? 0) * (meta.height ?? 0);
}

/**
 * Checks that the bytes are an image of at most `maxPixels` (config.limits.imageMaxPixels) and re-encodes them:
 * EXIF orientation applied, then every piece of metadata (EXIF with GPS, XMP, IPTC, comments) dropped, the
 * longer side capped at `maxPx`. Opaque images become JPEG, images with transparency PNG.
 */
export async function reencodeImage(
  data: Buffer,
  maxPx: number,
  maxPixels = loadLimits().imageMaxPixels,
): Promise<EncodedImage> {
  if (!(await isDecodableImage(data))) throw badRequest(MSG.files.notAnImage, 'file');
  const pixels = await declaredPixels(data).catch(() => {
    throw badRequest(MSG.files.notAnImage, 'file');
  });
  if (pixels > maxPixels) {
    const megapixels = Math.round(maxPixels / 100_000) / 10;
    throw new AppError(422, 'image_too_large', MSG.files.tooManyPixels(megapixels), 'file');
  }
  try {
    // limitInputPixels again: libvips refuses, before decoding, anything the header check above did not see.
    const input = sharp(data, { limitInputPixels: maxPixels, failOn: 'error' });
    const meta = await input.metadata();
    const pipeline = input.rotate().resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true });
    // Keep PNG only when transparency is really used (many encoders write an opaque alpha channel).
    const png = meta.hasAlpha === true && !(await sharp(data, { limitInputPixels: maxPixels }).stats()).isOpaque;
    const { data: out, info } = await (
      png
        ? pipeline.png({ compressionLevel: 9 })
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 86, mozjpeg: true })
    ).toBuffer({ resolveWithObject: true });
    return {
      data: out,
      contentType: png ? 'image/png' : 'image/jpeg',
      ext: png ? 'png' : 'jpg',
      width: info.width,
      height: info.height,
    };
  } catch {
    // Truncated or corrupt data that only looks like an image.
    throw badRequest(MSG.files.notAnImage, 'file');
  }
}
