import path from 'node:path';

/** A path typed by the user: relative to where `npm run` was called (INIT_CWD), not to the repository root. */
export const userPath = (p: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), p);

/** --data-dir, else DATA_DIR resolved like the server does (from the working directory), else ./data. */
export const dataDirOf = (flag: string | undefined) =>
  flag ? userPath(flag) : path.resolve(process.cwd(), process.env.DATA_DIR?.trim() || 'data');

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
