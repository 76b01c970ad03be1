// Renders the app icons of the web app manifest (public/icons/*.png) from icons/*.svg with sharp.
// Run after changing an SVG: node scripts/make-pwa-icons.mjs (the PNGs are committed; builds need no sharp).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages/web');
const out = path.join(web, 'public/icons');
mkdirSync(out, { recursive: true });

const renders = [
  { svg: 'icon.svg', file: 'icon-192.png', size: 192 },
  { svg: 'icon.svg', file: 'icon-512.png', size: 512 },
  // Maskable: full-bleed background, the mark inside the 80 % safe circle.
  { svg: 'icon-maskable.svg', file: 'maskable-192.png', size: 192 },
  { svg: 'icon-maskable.svg', file: 'maskable-512.png', size: 512 },
  // iOS home screen (it rounds the corners itself, so the full-bleed one).
  { svg: 'icon-maskable.svg', file: 'apple-touch-icon-180.png', size: 180 },
];

for (const { svg, file, size } of renders) {
  await sharp(path.join(web, 'icons', svg), { density: (72 * size) / 512 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(path.join(out, file));
  console.log(`public/icons/${file}`);
}
