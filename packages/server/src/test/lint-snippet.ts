import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

/** The repository's root (where eslint.config.js is). */
export const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Lints a snippet as if it were `file` (a path from the repository's root), with the repository's configuration. */
export async function lintSnippet(code: string, file: string): Promise<{ rule: string | null; line: number }[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return result!.messages.map((m) => ({ rule: m.ruleId, line: m.line }));
}
