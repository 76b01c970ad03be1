import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { databaseTestFiles } from './database-test-files.ts';

describe('the PostgreSQL leg’s files', () => {
  const files = databaseTestFiles(path.resolve(import.meta.dirname, '..'));

  it('holds the files that reach a database', () => {
    expect(files).toContain('src/features/chat/chat.routes.test.ts'); // createTestApp
    expect(files).toContain('src/platform/graceful-restart.test.ts'); // reads TEST_DATABASE_URL
  });

  it('leaves out the files that never open one', () => {
    expect(files).not.toContain('src/features/documents/extraction/extraction.test.ts');
    expect(files).not.toContain('src/platform/storage/s3-storage.test.ts');
    expect(files).not.toContain('src/test/database-test-files.test.ts');
  });

  it('follows a test’s own helpers, through import loops', async () => {
    const src = await mkdtemp(path.join(tmpdir(), 'sb-db-files-'));
    try {
      await mkdir(path.join(src, 'test'));
      await mkdir(path.join(src, 'feature'));
      // Written so that this file's own text holds no relative import for the scan to follow.
      const from = (spec: string) => `import { x } from '${spec}';\n`;
      const files: Record<string, string> = {
        'test/test-app.ts': 'export const x = 1;',
        'feature/kit.ts': from('./loop.ts') + from('../test/test-app.ts'),
        'feature/loop.ts': from('./kit.ts'),
        'feature/through-kit.test.ts': from('./kit.ts'),
        'feature/through-loop.test.ts': from('./loop.ts'),
        'feature/pure.test.ts': from('./pure.ts'),
        'feature/pure.ts': 'export const x = 1;',
      };
      for (const [name, text] of Object.entries(files)) await writeFile(path.join(src, name), text);
      expect(databaseTestFiles(src).sort()).toEqual([
        'src/feature/through-kit.test.ts',
        'src/feature/through-loop.test.ts',
      ]);
    } finally {
      await rm(src, { recursive: true, force: true });
    }
  });
});
