// The server's compiled entries under dist/, which global-setup.ts builds (when the sources are newer) before a
// run: a child process started from one loads a bundle, where tsx would compile the server's ~700 TypeScript files
// in the child and again in each of its worker threads (a spawned server took 4 s more CPU to start; issue 32).
import path from 'node:path';

export const serverRoot = path.resolve(import.meta.dirname, '../..');

/** Node's arguments that run dist/<name>.js (an entry of build.mjs: main, seed, backup, restore, crash-child…). */
export const builtEntry = (name: string) => ['--enable-source-maps', path.join(serverRoot, 'dist', `${name}.js`)];
