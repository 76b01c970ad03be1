import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { stronglyConnected } from '@studybuddy/shared/strongly-connected';

/**
 * The web's import graph, read from the source: import-boundaries.test.ts fails on what it finds wrong, and
 * `node --import tsx src/test/import-graph.ts [srcDir]` prints the figures (of any checkout's packages/web/src).
 */

export interface ImportEdge {
  /** Relative to src/, with forward slashes. */
  from: string;
  to: string;
  /** `import('…')`: the route's page chunk, loaded when needed. */
  dynamic: boolean;
}

/** Tests and test support are not part of the app. */
export const isTestSupport = (file: string) => /\.test\.tsx?$/.test(file) || /(^|\/)test\//.test(file);

/** The folder a file belongs to: `features/<name>`, `app`, `lib`, `ui`, or a root file's own name. */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features' && parts.length > 2) return `features/${parts[1]}`;
  if (parts.length > 1) return parts[0]!;
  return parts[0]!.replace(/\.tsx?$/, '');
}

export const isFeature = (unit: string) => unit.startsWith('features/');

/** A feature's public entry: the one file other features (and the app) import from it. */
export const isPublicEntry = (file: string) => /^features\/[\w-]+\/index\.ts$/.test(file);

/** A route's page, which only the router loads (lazily, each its own chunk). */
export const isRoutePage = (file: string) => /^features\/[\w-]+\/[\w-]+-page\.tsx$/.test(file);

export function readSources(srcDir: string): { file: string; text: string }[] {
  const out: { file: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        out.push({ file: path.relative(srcDir, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(srcDir);
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

/** Imports, re-exports (type-only ones too: they tie folders together as much) and `import('…')` of relative paths. */
export function importsOf(source: { file: string; text: string }): ImportEdge[] {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.ES2022, true);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, dynamic: boolean) => {
    if (!specifier.startsWith('.')) return;
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(source.file), specifier));
    edges.push({ from: source.file, to, dynamic });
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) add(node.moduleSpecifier.text, false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** Strongly connected groups of more than one folder (each is an import loop between folders). */
export function folderLoops(edges: ImportEdge[]): string[][] {
  const graph = new Map<string, Set<string>>();
  for (const e of edges) {
    const a = unitOf(e.from);
    const b = unitOf(e.to);
    if (!graph.has(a)) graph.set(a, new Set());
    if (!graph.has(b)) graph.set(b, new Set());
    if (a !== b) graph.get(a)!.add(b);
  }
  return stronglyConnected(graph);
}

export interface Figures {
  /** Every import from one feature's folder into another's. */
  crossFeatureImports: ImportEdge[];
  /** Those that reach past the other feature's public entry. */
  pastPublicEntry: ImportEdge[];
  /** The app's imports of a feature file that is neither its public entry nor a route page it loads lazily. */
  appPastPublicEntry: ImportEdge[];
  /** lib/ and ui/ are below the features: they import none. */
  sharedImportsFeatures: ImportEdge[];
  loops: string[][];
}

/** The figures of issue 15, over the app's files (tests and test support excluded). */
export function measure(srcDir: string): Figures {
  const sources = readSources(srcDir).filter((s) => !isTestSupport(s.file));
  const edges = sources.flatMap(importsOf).filter((e) => !isTestSupport(e.to));
  const crossFeatureImports = edges.filter(
    (e) => isFeature(unitOf(e.from)) && isFeature(unitOf(e.to)) && unitOf(e.from) !== unitOf(e.to),
  );
  return {
    crossFeatureImports,
    pastPublicEntry: crossFeatureImports.filter((e) => !isPublicEntry(e.to)),
    appPastPublicEntry: edges.filter(
      (e) =>
        unitOf(e.from) === 'app' &&
        isFeature(unitOf(e.to)) &&
        !isPublicEntry(e.to) &&
        !(e.dynamic && isRoutePage(e.to)),
    ),
    sharedImportsFeatures: edges.filter(
      (e) => ['lib', 'ui'].includes(unitOf(e.from)) && (isFeature(unitOf(e.to)) || unitOf(e.to) === 'app'),
    ),
    loops: folderLoops(edges),
  };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const srcDir = path.resolve(process.argv[2] ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..'));
  const f = measure(srcDir);
  const list = (title: string, edges: ImportEdge[]) => {
    console.log(`${title}: ${edges.length}`);
    for (const e of edges) console.log(`  ${e.from} -> ${e.to}`);
  };
  const pairs = new Map<string, number>();
  for (const e of f.crossFeatureImports) {
    const pair = `${unitOf(e.from)} -> ${unitOf(e.to)}`;
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  console.log(`cross-feature imports: ${f.crossFeatureImports.length} (${pairs.size} feature pairs)`);
  for (const [p, n] of [...pairs].sort()) console.log(`  ${p}: ${n}`);
  list("cross-feature imports past the other feature's public entry", f.pastPublicEntry);
  list("app imports past a feature's public entry (route pages aside)", f.appPastPublicEntry);
  list('lib/ui imports of features or the app', f.sharedImportsFeatures);
  console.log(`folder-level loops: ${f.loops.length}`);
  for (const l of f.loops) console.log(`  ${l.join(' <-> ')}`);
}
