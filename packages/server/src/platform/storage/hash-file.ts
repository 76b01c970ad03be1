import { Worker } from 'node:worker_threads';

/**
 * MD5 (base64) and size of a file, computed on a thread of its own: hashing a 24 MB upload takes tens of
 * milliseconds of CPU, and sixty of them a minute on the request thread held every other student's request
 * (abuse bench "60 × 24 MB document uploads"). One thread serves the process; files are hashed one after
 * the other, each read in 1 MB chunks. The worker is plain JavaScript (node built-ins only), so the source
 * and the bundled server run the same code.
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createReadStream } = require('node:fs');
const { createHash } = require('node:crypto');
parentPort.on('message', ({ id, file }) => {
  const hash = createHash('md5');
  let size = 0;
  createReadStream(file, { highWaterMark: 1 << 20 })
    .on('data', (chunk) => { hash.update(chunk); size += chunk.length; })
    .on('error', (err) => parentPort.postMessage({ id, error: { message: err.message, code: err.code } }))
    .on('end', () => parentPort.postMessage({ id, md5: hash.digest('base64'), size }));
});
`;

export interface FileDigest {
  md5: string;
  size: number;
}

type Answer = { id: number } & ({ md5: string; size: number } | { error: { message: string; code?: string } });

interface Pending {
  resolve(digest: FileDigest): void;
  reject(err: Error): void;
}

let worker: Worker | null = null;
const pending = new Map<number, Pending>();
let nextId = 0;

function failAll(err: Error) {
  for (const p of pending.values()) p.reject(err);
  pending.clear();
}

function hashWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_SOURCE, { eval: true });
  w.on('message', (answer: Answer) => {
    const p = pending.get(answer.id);
    if (!p) return;
    pending.delete(answer.id);
    if ('error' in answer) p.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    else p.resolve({ md5: answer.md5, size: answer.size });
    // An idle thread does not keep the process alive.
    if (!pending.size) w.unref();
  });
  const gone = (err: Error) => {
    if (worker === w) worker = null;
    failAll(err);
  };
  w.on('error', gone);
  w.on('exit', (code) => gone(new Error(`the hashing thread exited (${code})`)));
  worker = w;
  return w;
}

export function hashFile(file: string): Promise<FileDigest> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    const w = hashWorker();
    pending.set(id, { resolve, reject });
    w.ref();
    w.postMessage({ id, file });
  });
}
