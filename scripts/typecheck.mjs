// Type-checks every workspace package with its own tsconfig, and the benchmarks (bench/tsconfig.json), two at a
// time (tsc is single-threaded; the machines we run on have two cores or more).
//
// Each file is checked once (issue 32): the packages others import (shared, server, the emulators) are composite
// TypeScript projects, built with `tsc -b` into declarations under node_modules/.cache/typecheck (git-ignored,
// gone with a fresh `npm ci`); the projects that import them (web, e2e, bench) name them under "references" and
// read those declarations instead of type-checking the server's ~670 files again. A project starts once the
// projects it references have been built; errors in one do not stop the others.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, normalize } from 'node:path';

const CACHE = 'node_modules/.cache/typecheck';
const projects = [
  ...readdirSync('packages')
    .filter((p) => existsSync(`packages/${p}/tsconfig.json`))
    .map((p) => `packages/${p}`),
  'bench',
];
const config = (project) => JSON.parse(readFileSync(`${project}/tsconfig.json`, 'utf8'));
const graph = new Map(
  projects.map((project) => {
    const c = config(project);
    const refs = (c.references ?? []).map((r) => normalize(join(project, r.path)));
    for (const ref of refs) if (!projects.includes(ref)) throw new Error(`${project} references unknown ${ref}`);
    return [project, { composite: c.compilerOptions?.composite === true, refs }];
  }),
);

/** Longest chain of projects waiting on this one: the scheduler starts the project that holds up most first. */
const depth = (project) =>
  1 + Math.max(0, ...projects.filter((p) => graph.get(p).refs.includes(project)).map((p) => depth(p)));

/** One typecheck at a time per checkout: two writing the same declarations could read each other's half files. */
function lock() {
  const dir = `${CACHE}.lock`;
  mkdirSync(dirname(dir), { recursive: true });
  for (;;) {
    try {
      mkdirSync(dir);
      writeFileSync(`${dir}/pid`, String(process.pid));
      const release = () => rmSync(dir, { recursive: true, force: true });
      process.on('exit', release);
      for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let holder = 0;
      try {
        holder = Number(readFileSync(`${dir}/pid`, 'utf8'));
        process.kill(holder, 0);
      } catch {
        rmSync(dir, { recursive: true, force: true }); // its holder is gone
        continue;
      }
      if (holder) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
}

function check(project) {
  const mode = graph.get(project).composite ? '-b' : '-p';
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', mode, project]);
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      process.stdout.write(code === 0 ? `typecheck ${project}: ok\n` : output);
      resolve(code === 0);
    });
  });
}

lock();
const waiting = new Set(projects);
const done = new Set();
let failed = false;
const sleepers = [];
const wake = () => sleepers.splice(0).forEach((resolve) => resolve());
const lane = async () => {
  while (waiting.size > 0) {
    const ready = [...waiting]
      .filter((p) => graph.get(p).refs.every((ref) => done.has(ref)))
      .sort((a, b) => depth(b) - depth(a) || Number(b === 'packages/server') - Number(a === 'packages/server'));
    if (ready.length === 0) {
      await new Promise((resolve) => sleepers.push(resolve));
      continue;
    }
    const project = ready[0];
    waiting.delete(project);
    if (!(await check(project))) failed = true;
    done.add(project);
    wake();
  }
};
await Promise.all(Array.from({ length: Math.min(2, availableParallelism()) }, lane));
process.exit(failed ? 1 : 0);
