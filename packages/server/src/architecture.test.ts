import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isFeature, loopPath, measure, readSources, schemaTables, TABLE_OWNERS } from './test/import-graph.ts';
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
