import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const WEB_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** One entry of Vite's build manifest (dist/.vite/manifest.json), keyed by source path. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ScriptSize {
  file: string;
  bytes: number;
  gzipBytes: number;
  /**
   * What a browser that accepts Brotli receives: the build's .br copy (packages/web/vite-precompress.ts), or the
   * file itself when it is too small to have one.
   */
  wireBytes: number;
  compressed: boolean;
}

export function readManifest(dist = WEB_DIST): Manifest {
  const file = path.join(dist, '.vite/manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build -w packages/web\` first`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** The JavaScript files index.html loads by itself: its module scripts and modulepreload links. */
export function htmlScripts(dist = WEB_DIST): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isScript = tag.startsWith('<script') && /type="module"/.test(tag);
    const isPreload = tag.startsWith('<link') && /rel="modulepreload"/.test(tag);
    const src = /(?:src|href)="\/([^"]+)"/.exec(tag)?.[1];
    if ((isScript || isPreload) && src) files.push(src);
  }
  return files;
}

/** A chunk's file and every chunk it imports statically, transitively (what the browser must fetch to run it). */
function staticClosure(manifest: Manifest, key: string, into: Set<string>): void {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`${key} is not in the build manifest`);
  if (into.has(chunk.file)) return;
  into.add(chunk.file);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, into);
}

/**
 * The JavaScript a route needs before it shows: index.html's scripts and preloads, the entry chunk's static
 * imports, and the route's lazy module (`routeModule`, a source path such as 'src/features/auth/login-page.tsx')
 * with its static imports.
 */
export function routeScripts(routeModule: string, dist = WEB_DIST): ScriptSize[] {
  const manifest = readManifest(dist);
  const files = new Set<string>(htmlScripts(dist));
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) staticClosure(manifest, key, files);
  if (!manifest[routeModule]?.isDynamicEntry) throw new Error(`${routeModule} is not a lazily loaded chunk`);
  staticClosure(manifest, routeModule, files);
  return [...files].map((file) => scriptSize(file, dist));
}

export function scriptSize(file: string, dist = WEB_DIST): ScriptSize {
  const code = readFileSync(path.join(dist, file));
  const br = path.join(dist, `${file}.br`);
  const compressed = existsSync(br);
  return {
    file,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    wireBytes: compressed ? statSync(br).size : code.length,
    compressed,
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
