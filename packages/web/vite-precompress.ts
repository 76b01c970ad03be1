import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/**
 * Files worth compressing: the text the browser loads. Images, fonts and video are compressed already; index.html
 * is written per request (its CSP nonce), source maps are rarely fetched.
 */
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|webmanifest|txt)$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

/**
 * Writes `<file>.br` (Brotli, best) and `<file>.gz` (gzip -9) beside every text file of the build, once at build
 * time: the server sends them by Accept-Encoding (@fastify/static's preCompressed) without compressing per request.
 * Small files too: the server would compress them as it sends them otherwise. A copy that is not smaller than its
 * file is not written.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'studybuddy-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of files(outDir)) {
          if (!COMPRESSIBLE.test(file)) continue;
          const content = readFileSync(file);
          const br = brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          });
          const gz = gzipSync(content, { level: 9 });
          if (br.length < content.length) writeFileSync(`${file}.br`, br);
          if (gz.length < content.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}
