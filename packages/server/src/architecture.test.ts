import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isFeature, loopPath, measure, readSources, schemaTables, TABLE_OWNERS } from './test/import-graph.ts';
import {
  mainThreadFiles,
  moduleState,
  moduleStateOf,
  routeRepositoryImports,
  servicesBuiltOutsideRoot,
} from './test/feature-shape.ts';
import { functionLengths, longFunctions } from './test/function-length.ts';
import { lintSnippet } from './test/lint-snippet.ts';

const srcDir = fileURLToPath(new URL('.', import.meta.url));

/** The rules a snippet breaks, linted as if it were the given file of the server. */
const lint = async (code: string, file: string) =>
  (await lintSnippet(code, `packages/server/src/${file}`)).map((m) => m.rule);

// docs/architecture.md: features own their tables and talk through each other's services; the platform knows no
// feature. The lint rules keep this in the editor; the graph checks below hold the whole server to it.
describe('import rules (eslint) fire on what they forbid', () => {
  it("refuses another feature's repository and internals, and accepts its service", async () => {
    const file = 'features/chat/sample.ts';
    expect(
      await lint("import { areFriends } from '../social/friends.repository.ts';\nexport { areFriends };\n", file),
    ).toEqual(['no-restricted-imports']);
    expect(await lint("import { rows } from '../profile/discovery.repository.ts';\nexport { rows };\n", file)).toEqual([
      'no-restricted-imports',
    ]);
    expect(
      await lint("import { friendships } from '../social/friendships.service.ts';\nexport { friendships };\n", file),
    ).toEqual([]);
  });

  it("refuses another owner's table and the all-tables module, and accepts the feature's own", async () => {
    const file = 'features/chat/sample.ts';
    expect(await lint("import { profiles } from '../../db/schema/profile.ts';\nexport { profiles };\n", file)).toEqual([
      'no-restricted-imports',
    ]);
    expect(await lint("import { messages } from '../../db/schema.ts';\nexport { messages };\n", file)).toEqual([
      'no-restricted-imports',
    ]);
    expect(await lint("import { messages } from '../../db/schema/chat.ts';\nexport { messages };\n", file)).toEqual([]);
  });

  it('refuses a platform import of a feature', async () => {
    const code =
      "import { friendships } from '../../features/social/friendships.service.ts';\nexport { friendships };\n";
    expect(await lint(code, 'platform/realtime/sample.ts')).toEqual(['no-restricted-imports']);
    expect(
      await lint(
        "import { quotaExceeded } from '../quota.ts';\nexport { quotaExceeded };\n",
        'platform/jobs/sample.ts',
      ),
    ).toEqual([]);
  });

  it('refuses `as unknown as Db` anywhere on the server', async () => {
    const code = [
      "import type { Db } from '../db/connect.ts';",
      'export const a = (tx: object) => tx as unknown as Db;',
      'export const b = (ctx: { db: Db }, tx: object) => tx as unknown as typeof ctx.db;',
    ].join('\n');
    expect(await lint(code, 'platform/sample.ts')).toEqual(['no-restricted-syntax', 'no-restricted-syntax']);
  });
});

describe('the server import graph', () => {
  const figures = measure(srcDir);

  it('has no folder-level import loop', () => {
    const shown = figures.loops.map((loop) => `${loop.join(' <-> ')}:\n${loopPath(loop, figures.edges)}`);
    expect(shown).toEqual([]);
  });

  it('has the platform import nothing from the features', () => {
    expect(figures.platformImportsFeatures.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("has no feature import another feature's repository or table, nor name one in SQL", () => {
    expect(figures.foreignRepositoryImports.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
    expect(figures.foreignSchemaImports.map((x) => `${x.edge.from}: ${x.tables.join(', ')}`)).toEqual([]);
    expect(figures.foreignTablesInSql.map((x) => `${x.file}: ${x.table}`)).toEqual([]);
  });

  it('has features reach each other only through their services', () => {
    const other = figures.crossFeatureImports.filter((e) => !/\.service\.ts$/.test(e.to));
    expect(other.map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('has SQL only in repositories', () => {
    expect(figures.sqlOutsideRepositories).toEqual([]);
    expect(figures.unknownAsDb).toEqual([]);
  });

  it('gives every table one owner, whose schema file holds it', () => {
    const platformFiles = ['platform', 'jobs', 'realtime'];
    for (const [name, { module }] of schemaTables(readSources(srcDir))) {
      const owner = TABLE_OWNERS[name];
      expect(owner, `table ${name} has no owner in TABLE_OWNERS`).toBeDefined();
      const file = path.basename(module, '.ts');
      if (isFeature(owner!)) expect(`features/${file}`, `${name} is in ${module}`).toBe(owner);
      else expect(platformFiles, `${name} is in ${module}`).toContain(file);
    }
  });
});

// Issue 25: one service shape, for every feature folder (a new one is held to it from its first file).
const FEATURES = readdirSync(path.join(srcDir, 'features'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

it('finds every feature folder', () => {
  expect(FEATURES).toContain('chat');
  expect(FEATURES.length).toBeGreaterThanOrEqual(20);
});

describe.each(FEATURES)('the %s feature has one service shape', (feature) => {
  const sources = readSources(srcDir);

  it('keeps no module-level mutable state in the files the app runs (services hold it, built per app)', () => {
    expect(mainThreadFiles(sources, feature).length).toBeGreaterThan(1);
    expect(moduleStateOf(sources, feature)).toEqual([]);
  });

  it('has no route file import a repository', () => {
    expect(routeRepositoryImports(sources, feature).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it('builds every service factory its *.service.ts files export in its feature.ts, and only there', () => {
    expect(servicesBuiltOutsideRoot(sources, feature)).toEqual([]);
  });
});

describe('the service-shape checks fire on what they forbid', () => {
  const file = (name: string, text: string) => ({ file: `features/sample/${name}`, text });

  it('finds a per-app store, a changed collection and a let, and leaves read-only tables alone', () => {
    const source = file(
      'sample.ts',
      [
        'const sources = new WeakMap<object, string>();',
        'export const set = (k: object, v: string) => sources.set(k, v);',
        'let cached: string | null = null;',
        'const KINDS = new Set(["a", "b"]);',
        'export const isKind = (k: string) => KINDS.has(k);',
        'const hits: string[] = [];',
        'export const hit = (h: string) => { hits.push(h); };',
      ].join('\n'),
    );
    expect(moduleState(source)).toEqual([
      'features/sample/sample.ts:1 const sources (changed later)',
      'features/sample/sample.ts:3 let cached',
      'features/sample/sample.ts:6 const hits (changed later)',
    ]);
  });

  it("checks the files the composition root reaches, not a worker thread's program", () => {
    const sources = [
      file('sample.feature.ts', "import { a } from './a.ts';\nimport type { W } from './w.worker.ts';\n"),
      file('a.ts', "export { b } from './b.ts';\nexport const a = () => import('./c.ts');\n"),
      file('b.ts', 'export let b = 1;\n'),
      file('c.ts', 'export const c = 1;\n'),
      file('w.worker.ts', 'let state = 0;\nexport type W = number;\n'),
    ];
    expect(mainThreadFiles(sources, 'sample')).toEqual([
      'features/sample/a.ts',
      'features/sample/b.ts',
      'features/sample/c.ts',
      'features/sample/sample.feature.ts',
    ]);
    expect(moduleStateOf(sources, 'sample')).toEqual(['features/sample/b.ts:1 let b']);
  });

  it('finds a route file importing a repository, and a service built outside the composition root', () => {
    const sources = [
      file('sample.feature.ts', "import { sampleRoutes } from './sample.routes.ts';\nexport const f = sampleRoutes;\n"),
      file(
        'sample.routes.ts',
        "import { find } from './sample.repository.ts';\nimport { createSampleService } from './sample.service.ts';\nexport const sampleRoutes = () => createSampleService({ find });\n",
      ),
      file('sample.service.ts', 'export function createSampleService(deps: object) {\n  return deps;\n}\n'),
      file('sample.repository.ts', 'export const find = () => 1;\n'),
    ];
    expect(routeRepositoryImports(sources, 'sample').map((e) => e.to)).toEqual([
      'features/sample/sample.repository.ts',
    ]);
    expect(servicesBuiltOutsideRoot(sources, 'sample')).toEqual([
      'features/sample/sample.routes.ts builds createSampleService',
      'features/sample/sample.feature.ts does not build createSampleService',
    ]);
  });
});

// Issue 25: no function over 150 lines in the files the server runs (tests and their support aside): a long one
// is split into named functions in files whose names say what they hold.
describe('function length', () => {
  it('has no function over 150 lines outside the tests', () => {
    const long = longFunctions(readSources(srcDir), 150);
    expect(long.map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`)).toEqual([]);
  });

  it('measures every function from its first line to its last, the nested ones and arrows too', () => {
    const text = [
      'export function outer(a: number) {',
      '  const inner = (b: number) => {',
      '    return b + 1;',
      '  };',
      '  return inner(a);',
      '}',
      'const service = {',
      '  method() {',
      '    return 1;',
      '  },',
      '};',
    ].join('\n');
    const found = functionLengths({ file: 'features/sample/sample.ts', text });
    expect(found.map((f) => [f.name, f.line, f.lines])).toEqual([
      ['outer', 1, 6],
      ['inner', 2, 3],
      ['method', 8, 3],
    ]);
    expect(longFunctions([{ file: 'features/sample/sample.ts', text }], 5).map((f) => f.name)).toEqual(['outer']);
    expect(longFunctions([{ file: 'features/sample/sample.test.ts', text }], 5)).toEqual([]);
  });
});
