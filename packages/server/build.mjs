// `npm run build -w packages/server`: bundles the server's TypeScript into dist/ (ESM for Node 20, source maps).
// Our workspace packages (shared contracts, the demo emulators) are bundled in; every other package stays an
// import of node_modules and must be one of this package's `dependencies` (an `npm install --omit=dev` runs it).
// Every entry and chunk lands flat in dist/, so a module's `import.meta.url` folder is always dist/: the
// migrations are copied there and worker-lane.ts finds document.worker.js beside it.
import { builtinModules } from 'node:module';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(root, 'dist');
const src = (file) => path.join(root, 'src', file);

const entryPoints = {
  main: src('main.ts'),
  'document.worker': src('features/documents/document.worker.ts'),
  'flashcards.worker': src('features/flashcards/flashcards.worker.ts'),
  'ics.worker': src('features/schedule/ics.worker.ts'),
  seed: src('cli/seed.ts'),
  backup: src('cli/backup.ts'),
  restore: src('cli/restore.ts'),
  admin: src('cli/admin.ts'),
  'crash-child': src('platform/jobs/crash-child.ts'),
};

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const runtimeDeps = new Set(Object.keys(pkg.dependencies ?? {}));
const builtins = new Set(builtinModules);
const packageName = (spec) => spec.split('/', spec.startsWith('@') ? 2 : 1).join('/');

/** Where each package outside the bundle is imported from, to refuse any that is not a runtime dependency. */
const imported = new Map();
const externals = {
  name: 'externals',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@studybuddy/')) return undefined;
      if (args.path.startsWith('node:') || builtins.has(packageName(args.path))) return { external: true };
      const name = packageName(args.path);
      if (!imported.has(name)) imported.set(name, path.relative(root, args.importer));
      return { external: true };
    });
  },
};

const started = Date.now();
rmSync(dist, { recursive: true, force: true });
await esbuild.build({
  entryPoints,
  outdir: dist,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  plugins: [externals],
});

const missing = [...imported].filter(([name]) => !runtimeDeps.has(name));
if (missing.length) {
  rmSync(dist, { recursive: true, force: true });
  process.stderr.write('The server imports packages that are not in packages/server/package.json "dependencies":\n');
  for (const [name, from] of missing) process.stderr.write(`  ${name} (from ${from})\n`);
  process.exit(1);
}

cpSync(src('db/migrations'), path.join(dist, 'migrations'), { recursive: true });
process.stdout.write(`Server built into packages/server/dist in ${Date.now() - started} ms\n`);
