import ts from 'typescript';
import { importsOf, isTestSupport, type ImportEdge, type SourceFile } from './import-graph.ts';

/**
 * One service shape per feature (issue 25): `<feature>.feature.ts` is the composition root that builds the
 * feature's services (`createXService(deps)` factories exported from `*.service.ts`) and hands them to its routes;
 * no module keeps per-app state; routes reach the data only through services. architecture.test.ts holds every
 * feature folder to these checks.
 */

const folderOf = (feature: string) => `features/${feature}/`;

function featureSources(sources: SourceFile[], feature: string): SourceFile[] {
  return sources.filter((s) => s.file.startsWith(folderOf(feature)) && !isTestSupport(s.file));
}

/** Resolves an import's target to a source file (imports name the `.ts` file; a missing extension is tried). */
function resolve(to: string, files: Set<string>): string | undefined {
  if (files.has(to)) return to;
  if (files.has(`${to}.ts`)) return `${to}.ts`;
  return undefined;
}

/**
 * The feature's files that run in the app's own thread: what its composition root imports (not for types only),
 * and what those import. A worker thread's program (`*.worker.ts` and what only it imports) is started by URL, not
 * imported: its module state is that thread's, one per lane, never shared between apps.
 */
export function mainThreadFiles(sources: SourceFile[], feature: string): string[] {
  const files = new Set(sources.map((s) => s.file));
  const byFile = new Map(sources.map((s) => [s.file, s]));
  const root = `${folderOf(feature)}${feature}.feature.ts`;
  const seen = new Set<string>();
  const queue = files.has(root) ? [root] : [];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const edge of importsOf(byFile.get(file)!)) {
      const to = resolve(edge.to, files);
      if (to && !edge.typeOnly && to.startsWith(folderOf(feature)) && !seen.has(to)) queue.push(to);
    }
  }
  return [...seen].sort();
}

const MUTATORS =
  /^\s*(?:\.(?:set|add|delete|clear|push|pop|shift|unshift|splice|sort|reverse|fill)\s*\(|(?:\.\w+|\[[^\]]*\])\s*(?:=(?!=)|\+=|-=|\+\+|--))/;

/** Whether `name` is changed after its declaration: a collection method that mutates, or an assignment into it. */
function mutated(text: string, name: string, from: number): boolean {
  const rest = text.slice(from);
  for (const m of rest.matchAll(new RegExp(`(?<![\\w$.])${name}(?![\\w$])`, 'g'))) {
    if (MUTATORS.test(rest.slice(m.index + name.length))) return true;
  }
  return false;
}

/**
 * Module-level state of one file: a top-level `let`/`var`, or a top-level `const` (a Map, Set, WeakMap, array or
 * object) that the file changes later. Constant tables read only (`const KINDS = new Set([...])`) are no state.
 */
export function moduleState(source: SourceFile): string[] {
  const sf = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.ES2022, true);
  const found: string[] = [];
  for (const statement of sf.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    const list = statement.declarationList;
    const isConst = (list.flags & ts.NodeFlags.Const) !== 0;
    for (const decl of list.declarations) {
      if (!ts.isIdentifier(decl.name)) continue;
      const name = decl.name.text;
      const line = sf.getLineAndCharacterOfPosition(decl.getStart()).line + 1;
      if (!isConst) found.push(`${source.file}:${line} let ${name}`);
      else if (mutated(source.text, name, decl.end)) found.push(`${source.file}:${line} const ${name} (changed later)`);
    }
  }
  return found;
}

/** Module-level mutable state in the feature's main-thread files. */
export function moduleStateOf(sources: SourceFile[], feature: string): string[] {
  const main = new Set(mainThreadFiles(sources, feature));
  return featureSources(sources, feature)
    .filter((s) => main.has(s.file))
    .flatMap(moduleState);
}

/** Imports of a repository (the feature's own or any other) by the feature's route files. */
export function routeRepositoryImports(sources: SourceFile[], feature: string): ImportEdge[] {
  return featureSources(sources, feature)
    .filter((s) => /\.routes\.ts$/.test(s.file))
    .flatMap(importsOf)
    .filter((e) => /\.repository(\.ts)?$/.test(e.to));
}

/** The `create…Service` factories the feature's `*.service.ts` files export, as `file#name`. */
export function serviceFactories(sources: SourceFile[], feature: string): string[] {
  const out: string[] = [];
  for (const s of featureSources(sources, feature)) {
    if (!/\.service\.ts$/.test(s.file)) continue;
    for (const m of s.text.matchAll(/^export (?:async )?function (create\w+Service)\b/gm))
      out.push(`${s.file}#${m[1]}`);
  }
  return out;
}

/**
 * Where the feature's service factories are called from, other than its composition root (and tests): each
 * service is built once, in `<feature>.feature.ts`, and handed to whatever needs it. Also names a feature whose
 * composition root builds no service at all.
 */
export function servicesBuiltOutsideRoot(sources: SourceFile[], feature: string): string[] {
  const factories = serviceFactories(sources, feature).map((f) => f.split('#')[1]!);
  const root = `${folderOf(feature)}${feature}.feature.ts`;
  const problems: string[] = [];
  if (!factories.length) problems.push(`${folderOf(feature)}: no *.service.ts exports a create…Service factory`);
  for (const s of sources) {
    if (isTestSupport(s.file)) continue;
    for (const name of factories) {
      const calls = [...s.text.matchAll(new RegExp(`(?<![\\w$])${name}\\s*\\(`, 'g'))].filter(
        (m) => !/function\s+$/.test(s.text.slice(Math.max(0, m.index - 9), m.index)),
      );
      if (calls.length && s.file !== root) problems.push(`${s.file} builds ${name}`);
    }
  }
  const rootText = sources.find((s) => s.file === root)?.text ?? '';
  for (const name of factories) {
    if (!new RegExp(`(?<![\\w$])${name}\\s*\\(`).test(rootText)) problems.push(`${root} does not build ${name}`);
  }
  return problems;
}
