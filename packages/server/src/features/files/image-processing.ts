import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { MSG } from '@studybuddy/shared/messages';
import { badRequest } from '../../platform/errors.ts';

/** Image formats we decode; decided by the bytes, never by the name or the declared type (SVG is never accepted). */
const DECODABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'image/tiff']);
/** Refuse decompression bombs: about 100 megapixels is more than any phone camera. */
const MAX_INPUT_PIXELS = 100_000_000;

export interface EncodedImage {
  data: Buffer;
  contentType: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  width: number;
  height: number;
}

/** True when the bytes are an image format we accept. */
export async function isDecodableImage(data: Buffer): Promise<boolean> {
  const type = await fileTypeFromBuffer(data);
  return !!type && DECODABLE.has(type.mime);
}

/**
 * Checks that the bytes are an image and re-encodes them: EXIF orientation applied, then every piece of
 * metadata (EXIF with GPS, XMP, IPTC, comments) dropped, the longer side capped at `maxPx`. Opaque images
 * become JPEG, images with transparency PNG.
 */
export async function reencodeImage(data: Buffer, maxPx: number): Promise<EncodedImage> {
  if (!(await isDecodableImage(data))) throw badRequest(MSG.files.notAnImage, 'file');
  try {
    const input = sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const meta = await input.metadata();
    const pipeline = input.rotate().resize({ width: maxPx, height: maxPx, fit: 'inside', withoutEnlargement: true });
    // Keep PNG only when transparency is really used (many encoders write an opaque alpha channel).
    const png = meta.hasAlpha === true && !(await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).stats()).isOpaque;
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
