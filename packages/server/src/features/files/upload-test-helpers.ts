import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';

/** A JPEG that carries EXIF with a GPS position and a camera owner (what a phone photo leaks). */
export async function jpegWithGps(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Phone 1', Artist: 'Ada Lovelace' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '34/1 4/1 20/1',
        GPSLongitudeRef: 'W',
        GPSLongitude: '118/1 26/1 40/1',
      },
    })
    .toBuffer();
}

/** A PNG of random noise (does not compress): about width × height × 3 bytes. */
export async function noisePng(width: number, height: number): Promise<Buffer> {
  return sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** A multipart/form-data body with one file field. */
export function multipart(
  data: Buffer,
  filename: string,
  contentType: string,
  field = 'file',
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----sb${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
      `Content-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads through the single-request path and answers the response. */
export async function uploadDirect(
  app: FastifyInstance,
  cookie: string,
  data: Buffer,
  opts: { filename?: string; type?: string; target?: string; query?: string } = {},
) {
  const body = multipart(data, opts.filename ?? 'photo.jpg', opts.type ?? 'image/jpeg');
  return app.inject({
    method: 'POST',
    url: `/api/uploads/${opts.target ?? 'profile-image'}${opts.query ?? ''}`,
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}
