// `npm run lint`: ESLint and Prettier's check over the whole tree, side by side (issue 32: neither needs the other,
// and one after the other they took the sum of both). Each one's output is printed when it ends; the run fails if
// either does. The same files and rules as `eslint . && prettier --check .`.
import { spawn } from 'node:child_process';

const tools = [
  ['eslint', ['node_modules/eslint/bin/eslint.js', '.']],
  ['prettier', ['node_modules/prettier/bin/prettier.cjs', '--check', '.']],
];

const run = ([name, args]) =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, args);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      process.stdout.write(code === 0 ? (output.trim() ? `${output.trimEnd()}\n` : `${name}: ok\n`) : output);
      resolve(code === 0);
    });
  });

const ok = await Promise.all(tools.map(run));
process.exit(ok.every(Boolean) ? 0 : 1);
