import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { AUTH_MSG } from './auth.ts';
import { PUBLIC_MSG } from './public.ts';

/**
 * Every text of the catalogue is used by the product (issue 25 point 5): the server's, the web app's and the
 * shared package's own code, tests and test support left out. A text counts as used when the code reaches it by
 * its keys: `MSG.chat.placeholder`, a feature module's export (`PUBLIC_MSG.login.title`), an alias of a part
 * (`const T = MSG.flashcards; T.noDecks`), or a part indexed or handed on whole (`MSG.coursework.types[type]`,
 * `texts={MSG.profile.crop}`), which counts every text under it.
 */
const packages = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The product's code, and the script that records the Canvas tutorial video with the catalogue's captions. */
const ROOTS = ['server/src', 'web/src', 'shared/src', '../scripts'].map((root) => path.join(packages, root));
const CATALOGUE = path.join(packages, 'shared/src/messages');
const isProductCode = (file: string) =>
  /\.(ts|tsx|mjs)$/.test(file) &&
  !/\.(test|e2e|test-kit)\.tsx?$/.test(file) &&
  !/[\\/](test|demo)[\\/]/.test(file) &&
  !file.startsWith(CATALOGUE);

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* sourceFiles(full);
    } else if (isProductCode(full)) yield full;
  }
}

/**
 * The parts split between the log-in page's first load (public.ts) and the other signed-out pages (auth.ts), joined
 * in MSG by messages.ts.
 */
const JOINED_PARTS = ['reset', 'signup'] as const;

/** Texts of the spec for cases this product does not have (sign-up by password is always on; no user check). */
const SPEC_TEXTS_WITHOUT_A_CASE = ['signup.notAllowed', 'profile.verifyUserFailed'];

type Catalogue = { [key: string]: unknown };

function leaves(node: Catalogue, prefix: string[] = []): string[][] {
  return Object.entries(node).flatMap(([key, value]) =>
    value !== null && typeof value === 'object' ? leaves(value as Catalogue, [...prefix, key]) : [[...prefix, key]],
  );
}

/** The longest existing path of MSG along `keys`, and whether it ends at a text. */
function resolve(keys: string[]): { path: string[]; leaf: boolean } | undefined {
  let node: unknown = MSG;
  const found: string[] = [];
  for (const key of keys) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) break;
    node = (node as Catalogue)[key];
    found.push(key);
  }
  if (found.length === 0) return undefined;
  return { path: found, leaf: node === null || typeof node !== 'object' };
}

/** The catalogue's paths the code reaches, each text by itself or a whole part (every text under it). */
function usedPaths(code: string): string[][] {
  const isCatalogue = (name: string) => /^[A-Z_]*MSG$/.test(name);
  // Aliases of a part: `const T = MSG.flashcards` (one name may stand for several parts in several files).
  const aliases = new Map<string, string[][]>();
  const aliasDeclaration = /\b(?:const|let)\s+(\w+)\s*=\s*(\w+)((?:\.\w+)*)\s*;/g;
  for (const [, name, base, chain] of code.matchAll(aliasDeclaration)) {
    if (!isCatalogue(base!)) continue;
    aliases.set(name!, [...(aliases.get(name!) ?? []), chain!.split('.').filter(Boolean)]);
  }
  const reached: string[][] = [];
  const withoutAliases = code.replace(aliasDeclaration, (declaration, _name, base: string) =>
    isCatalogue(base) ? '' : declaration,
  );
  for (const [, base, chain, indexed] of withoutAliases.matchAll(/\b(\w+)((?:\??\.\w+)*)(\s*\[)?/g)) {
    const keys = chain!.split(/\??\./).filter(Boolean);
    if (keys.length === 0 && !indexed) continue;
    const starts = isCatalogue(base!) ? [[]] : (aliases.get(base!) ?? []);
    for (const start of starts) {
      const target = resolve([...start, ...keys]);
      // A part reached and not read further by its keys is indexed, handed on or iterated whole (`.map`).
      if (target && target.path.length >= start.length + Math.min(1, keys.length)) reached.push(target.path);
    }
  }
  return reached;
}

describe('the texts catalogue (MSG)', () => {
  it('has no text the product does not use', () => {
    const code = ROOTS.flatMap((root) => [...sourceFiles(root)])
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    const used = usedPaths(code).map((p) => p.join('.'));
    const unused = leaves(MSG as Catalogue)
      .map((p) => p.join('.'))
      .filter((text) => !SPEC_TEXTS_WITHOUT_A_CASE.includes(text))
      .filter((text) => !used.some((u) => text === u || text.startsWith(`${u}.`)));
    expect(unused).toEqual([]);
  });

  it('has each part in one feature module only (no spread hides another)', () => {
    const modules = readdirSync(CATALOGUE).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const owners = new Map<string, string[]>();
    for (const file of modules) {
      const source = readFileSync(path.join(CATALOGUE, file), 'utf8');
      for (const [, key] of source.matchAll(/^ {2}(\w+): \{$/gm)) owners.set(key!, [...(owners.get(key!) ?? []), file]);
    }
    const shared = [...owners].filter(([, files]) => files.length > 1).map(([key, files]) => [key, files.sort()]);
    expect(shared.sort()).toEqual(JOINED_PARTS.map((part) => [part, ['auth.ts', 'public.ts']]));
    expect(Object.keys(MSG).sort()).toEqual([...owners.keys()].sort());
  });

  it("joins the log-in page's part of signup and reset with the rest, neither hiding a text of the other", () => {
    for (const part of JOINED_PARTS) {
      const first = Object.keys(PUBLIC_MSG[part]);
      const rest = Object.keys(AUTH_MSG[part]);
      expect(
        first.filter((key) => rest.includes(key)),
        part,
      ).toEqual([]);
      expect(Object.keys(MSG[part]).sort(), part).toEqual([...first, ...rest].sort());
    }
  });
});
