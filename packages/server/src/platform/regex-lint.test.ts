import { describe, expect, it } from 'vitest';
import { lintSnippet } from '../test/lint-snippet.ts';

/** Lints a snippet as if it were a file of the server (or of `file`, from the repository's root). */
const lint = (code: string, file = 'packages/server/src/platform/regex-sample.ts') => lintSnippet(code, file);

// Issue 13: `/[ \t]+\n/` on "a" + 400,000 spaces + "b" held the event loop for minutes. The lint keeps such
// patterns out of every file of the server and shared packages.
describe('super-linear regex lint', () => {
  it('reports quadratic and exponential patterns in the server and in shared', async () => {
    const code = [
      "export const a = (s: string) => s.replace(/[ \\t]+\\n/g, '\\n');",
      "export const b = (s: string) => s.replace(/<[^>]+>/g, ' ');",
      'export const c = (s: string) => /^(\\w+\\s?)*$/.test(s);',
      "export const d = (s: string) => s.replace(/ *\\n */g, '\\n');",
    ].join('\n');
    expect(await lint(code)).toEqual(
      expect.arrayContaining([
        { rule: 'regexp/no-super-linear-move', line: 1 },
        { rule: 'regexp/no-super-linear-move', line: 2 },
        { rule: 'regexp/no-super-linear-backtracking', line: 3 },
        { rule: 'regexp/no-super-linear-move', line: 4 },
      ]),
    );
    expect(await lint(code, 'packages/shared/src/regex-sample.ts')).toContainEqual({
      rule: 'regexp/no-super-linear-move',
      line: 1,
    });
  });

  it('accepts the linear forms the code uses instead', async () => {
    const code = [
      "export const a = (s: string) => s.replace(/<[^<>]+>/g, ' ');",
      "export const b = (s: string) => s.replace(/ ?\\n ?/g, '\\n');",
      "export const c = (s: string) => s.replace(/\\n{3,}/g, '\\n\\n');",
    ].join('\n');
    expect(await lint(code)).toEqual([]);
  });
});
