import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

/** What opens a database for a test: the test app, a spawned server, the connection module itself. */
const OPENS_DATABASE = /[/\\](test[/\\]test-app|test[/\\]spawn-server|db[/\\]connect)\.ts$/;
const NAMES_TEST_DATABASE = /env\.TEST_DATABASE_URL/;
const RELATIVE_IMPORT = /(?:from |import\()'(\.{1,2}\/[^']+\.ts)'/g;

/**
 * The test files under `src` that reach a database: those that read the TEST_DATABASE_URL setting or import, through their
 * own relative imports, the test app, the spawned server or db/connect.ts. The PostgreSQL leg runs only these; the
 * others (parsers, NLP, storage, pure rules) would run the same code twice.
 */
export function databaseTestFiles(src: string): string[] {
  const reaches = new Map<string, boolean>();
  const visit = (file: string, path_: Set<string>): boolean => {
    const known = reaches.get(file);
    if (known !== undefined) return known;
    if (path_.has(file)) return false;
    path_.add(file);
    const text = readFileSync(file, 'utf8');
    let hit = OPENS_DATABASE.test(file) || NAMES_TEST_DATABASE.test(text);
    for (const [, spec] of hit ? [] : text.matchAll(RELATIVE_IMPORT)) {
      const target = path.resolve(path.dirname(file), spec!);
      if (existsSync(target) && visit(target, path_)) {
        hit = true;
        break;
      }
    }
    path_.delete(file);
    // A file on an import loop may be judged before all of its loop is known; only sure answers are kept.
    if (hit || path_.size === 0) reaches.set(file, hit);
    return hit;
  };
  const tests = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.ts'));
  return tests.filter((f) => visit(path.join(src, f), new Set())).map((f) => path.join('src', f));
}
