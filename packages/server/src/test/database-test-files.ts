import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What behaves differently on PostgreSQL than on PGlite. PGlite is PostgreSQL itself (the same parser, planner and
 * SQL), but one connection in this process: on a pool, transactions run side by side, so row locks, SKIP LOCKED and
 * advisory locks decide who waits; LISTEN/NOTIFY reaches other instances; the code that branches on the database's
 * kind (or on `concurrent`) takes its other path; and text search meets PostgreSQL's own configuration.
 */
export const POSTGRES_DIFFERENCE =
  /\bfor update\b|\bskip locked\b|pg_advisory|\bdatabase\.kind\b|\.concurrent\b|tsquery|to_tsvector|pg_notify|\bLISTEN \$|poolStats/i;
/** A test file that exercises such a difference only through the app says so on a line of its own. */
export const POSTGRES_LEG_MARKER = /^\/\/ postgres-leg: (.+)$/m;
/** Other instances, spawned servers, or its own branches on the leg. */
const USES_THE_LEG = /env\.TEST_DATABASE_URL|\b(?:secondInstance|oneOrTwoInstances|twoInstanceCast|spawnServer)\(/;
const RELATIVE_IMPORT = /(?:from |import\()'(\.{1,2}\/[^']+\.ts)'/g;

const isTest = (file: string) => file.endsWith('.test.ts');
/** Test helpers: not product code (the check below asks product modules only to be covered). */
const isTestSupport = (rel: string) =>
  isTest(rel) || /(^|\/)test\//.test(rel) || /test-kit|test-helpers|test-provider|\.fixture\.ts$/.test(rel);

/**
 * Why the PostgreSQL leg runs `file` (a test under `src`), or null when the PGlite leg's run says all: it lives in
 * db/ (connections, migrations, transactions); it reads TEST_DATABASE_URL or starts other instances; it imports a
 * module holding a POSTGRES_DIFFERENCE; or it carries the marker line.
 */
export function postgresLegReason(src: string, file: string): string | null {
  const rel = path.relative(src, file).split(path.sep).join('/');
  if (rel.startsWith('db/')) return 'the database layer';
  const text = readFileSync(file, 'utf8');
  const marker = POSTGRES_LEG_MARKER.exec(text);
  if (marker) return marker[1]!;
  const leg = USES_THE_LEG.exec(text);
  if (leg) return `uses ${leg[0]}`;
  for (const [, spec] of text.matchAll(RELATIVE_IMPORT)) {
    const target = path.resolve(path.dirname(file), spec!);
    if (!isTestSupport(target) && existsSync(target) && POSTGRES_DIFFERENCE.test(readFileSync(target, 'utf8'))) {
      return `imports ${path.relative(src, target)}`;
    }
  }
  return null;
}

const files = (src: string) =>
  readdirSync(src, { recursive: true, encoding: 'utf8' }).map((f) => f.split(path.sep).join('/'));

/** The test files the PostgreSQL leg runs, as `src/…` paths; the PGlite leg runs them all. */
export function databaseTestFiles(src: string): string[] {
  return files(src)
    .filter(isTest)
    .filter((f) => postgresLegReason(src, path.join(src, f)) !== null)
    .map((f) => `src/${f}`);
}

/**
 * Product modules holding a POSTGRES_DIFFERENCE that no file of the PostgreSQL leg covers: one covers a module when
 * it imports it, sits in its folder, or names its file in its marker.
 */
export function uncoveredDifferences(src: string): string[] {
  const all = files(src);
  const leg = databaseTestFiles(src).map((f) => f.slice('src/'.length));
  const legTexts = leg.map((f) => readFileSync(path.join(src, f), 'utf8'));
  return all
    .filter((f) => f.endsWith('.ts') && !isTestSupport(f) && !f.startsWith('db/migrations'))
    .filter((f) => POSTGRES_DIFFERENCE.test(readFileSync(path.join(src, f), 'utf8')))
    .filter((module) => {
      if (module.startsWith('db/')) return leg.every((t) => !t.startsWith('db/'));
      const base = path.posix.basename(module);
      const covered = leg.some(
        (t, i) =>
          path.posix.dirname(t) === path.posix.dirname(module) ||
          (POSTGRES_LEG_MARKER.exec(legTexts[i]!)?.[1] ?? '').includes(base) ||
          [...legTexts[i]!.matchAll(RELATIVE_IMPORT)].some(
            ([, spec]) => path.posix.join(path.posix.dirname(t), spec!) === module,
          ),
      );
      return !covered;
    });
}
