// @vitest-environment node
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { folderLoops, measure, type ImportEdge } from './import-graph.ts';

const root = fileURLToPath(new URL('../../../../', import.meta.url));
const srcDir = fileURLToPath(new URL('../', import.meta.url));
const show = (edges: ImportEdge[]) => edges.map((e) => `${e.from} -> ${e.to}`);

/** Lints a snippet as if it were the given file of the web package, with the repository's configuration. */
async function lint(file: string, code: string) {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'packages/web/src', file) });
  return result!.messages.map((m) => m.ruleId);
}

describe("the web's import graph", () => {
  const figures = measure(srcDir);

  it("has no import into another feature except through that feature's public entry", () => {
    expect(show(figures.pastPublicEntry)).toEqual([]);
    expect(show(figures.appPastPublicEntry)).toEqual([]);
    expect(show(figures.sharedImportsFeatures)).toEqual([]);
    // The measure sees the imports that are allowed (it would pass on a graph it cannot read).
    expect(figures.crossFeatureImports.length).toBeGreaterThan(0);
  });

  it('has no folder-level import loop', () => {
    expect(figures.loops).toEqual([]);
  });

  it('finds a loop between folders however long it is', () => {
    const edge = (from: string, to: string): ImportEdge => ({ from, to, dynamic: false });
    const loops = folderLoops([
      edge('features/a/x.ts', 'features/b/index.ts'),
      edge('features/b/y.ts', 'features/c/index.ts'),
      edge('features/c/z.ts', 'features/a/index.ts'),
      edge('features/d/w.ts', 'features/a/index.ts'),
      edge('features/a/x.ts', 'features/a/y.ts'),
    ]);
    expect(loops).toEqual([['features/a', 'features/b', 'features/c']]);
  });
});

describe('the ESLint rule for one-way imports', () => {
  it("reports a feature importing another feature's internals, or the app", async () => {
    expect(await lint('features/groups/sample.ts', "export { outbox } from '../conversations/outbox.ts';")).toEqual([
      'no-restricted-imports',
    ]);
    expect(
      await lint(
        'features/lms/sample.tsx',
        "import type { ExportSelection } from '../calendar/use-calendar-export.ts';\nexport type S = ExportSelection;",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(await lint('features/social/sample.ts', "export { Shell } from '../../app/shell.tsx';")).toEqual([
      'no-restricted-imports',
    ]);
  });

  it('reports the app reaching past a public entry, and lib or ui importing a feature', async () => {
    expect(await lint('app/sample.ts', "export { outbox } from '../features/conversations/outbox.ts';")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await lint('lib/sample.ts', "export { toast } from '../features/groups/index.ts';")).toEqual([
      'no-restricted-imports',
    ]);
    expect(await lint('ui/sample.ts', "export { Shell } from '../app/shell.tsx';")).toEqual(['no-restricted-imports']);
  });

  it("accepts public entries, the feature's own files and the shared folders", async () => {
    const code = [
      "export { ConversationView } from '../conversations/index.ts';",
      "export { groupKeys } from './groups-api.ts';",
      "export { api } from '../../lib/api.ts';",
      "export { toast } from '../../ui/toast.ts';",
    ].join('\n');
    expect(await lint('features/groups/sample.ts', code)).toEqual([]);
    expect(await lint('app/sample.ts', "export { groupsLive } from '../features/groups/index.ts';")).toEqual([]);
  });
});
