import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseTestFiles, uncoveredDifferences } from './database-test-files.ts';

describe('the PostgreSQL leg’s files', () => {
  const src = path.resolve(import.meta.dirname, '..');
  const files = databaseTestFiles(src);

  it('holds the files where PostgreSQL behaves differently from PGlite', () => {
    expect(files).toContain('src/db/connect.test.ts'); // the database layer
    expect(files).toContain('src/platform/graceful-restart.test.ts'); // spawned servers
    expect(files).toContain('src/platform/realtime/pg-bus.test.ts'); // LISTEN/NOTIFY, reads TEST_DATABASE_URL
    expect(files).toContain('src/platform/jobs/job-queue.test.ts'); // SKIP LOCKED claims
    expect(files).toContain('src/features/search/search.test.ts'); // its marker: full-text search
  });

  it('leaves out the files whose database work is the same SQL on one connection', () => {
    expect(files).not.toContain('src/features/chat/chat.routes.test.ts');
    expect(files).not.toContain('src/features/documents/extraction/extraction.test.ts');
    expect(files).not.toContain('src/test/database-test-files.test.ts');
  });

  it('covers every module that holds a difference (new ones: import it in a test of the leg, or mark one)', () => {
    expect(uncoveredDifferences(src)).toEqual([]);
  });

  it('takes a file by its folder, its own text, its imports or its marker, and says what is uncovered', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sb-db-files-'));
    try {
      for (const sub of ['db', 'feature', 'other']) await mkdir(path.join(dir, sub));
      // Written so that this file's own text holds none of the patterns the scan looks for.
      const from = (spec: string) => `import { x } from '${spec}';\n`;
      const words = (...parts: string[]) => parts.join(' ');
      const tree: Record<string, string> = {
        'db/connect.test.ts': 'export {};',
        'feature/locks.ts': `const q = '${words('select', '1', 'for', 'update', 'skip', 'locked')}';`,
        'feature/plain.ts': 'export const x = 1;',
        'feature/locks.test.ts': from('./locks.ts'),
        'feature/plain.test.ts': from('./plain.ts'),
        'feature/leg.test.ts': `const url = process.${['env', 'TEST_DATABASE_URL'].join('.')};`,
        'other/search.ts': `const q = '${words('to', 'tsquery')}'.replace(' ', '_');`,
        'other/uses.test.ts': from('./plain.ts'),
        'other/plain.ts': 'export const x = 1;',
      };
      for (const [name, text] of Object.entries(tree)) await writeFile(path.join(dir, name), text);
      expect(databaseTestFiles(dir).sort()).toEqual([
        'src/db/connect.test.ts',
        'src/feature/leg.test.ts',
        'src/feature/locks.test.ts',
      ]);
      expect(uncoveredDifferences(dir)).toEqual(['other/search.ts']);
      await writeFile(path.join(dir, 'other/uses.test.ts'), `// ${words('postgres-leg:', 'text', 'search.ts')}\n`);
      expect(databaseTestFiles(dir)).toContain('src/other/uses.test.ts');
      expect(uncoveredDifferences(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
