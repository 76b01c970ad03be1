import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants } from 'node:zlib';

/**
 * Compresses answers of 1 KB or more whose type is compressible (JSON, text; never images, audio or archives,
 * which are compressed already) by the client's Accept-Encoding. The web app's built files carry their own
 * Brotli and gzip copies (platform/spa.ts serves them), so nothing is compressed twice. Brotli at quality 4: at
 * its default (11) a 100 KB answer costs tens of milliseconds of CPU, at 4 about a millisecond for a few percent
 * more bytes. Request bodies are not decompressed (a small gzip body could unpack to gigabytes).
 */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
