import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { IcsError, type IcsFailure, type Occurrence, type ParseLimits } from './ics-parse.ts';

const require = createRequire(import.meta.url);
// Built (build.mjs), this module and ics.worker.js sit flat in dist/; from source the worker is ics.worker.ts.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_URL = fromSource
  ? new URL('./ics.worker.ts', import.meta.url)
  : new URL('./ics.worker.js', import.meta.url);
const resourceLimits = { maxOldGenerationSizeMb: 192, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };

function spawn(): Worker {
  if (!fromSource) return new Worker(WORKER_URL, { resourceLimits });
  const tsx = pathToFileURL(require.resolve('tsx/esm/api')).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return new Worker(code, { eval: true, resourceLimits });
}

/** At most two imports parse at once (2 cores); the others wait their turn. */
const MAX_THREADS = 2;

/** Turns of at most `max` at once; the others wait in order. */
function createSlots(max: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (): Promise<() => void> => {
    if (running >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    return () => {
      running--;
      waiting.shift()?.();
    };
  };
}

/**
 * The calendar parser of an app's imports: each calendar is parsed in a thread of its own, ended at
 * `limits.deadline` (the import's 5 s, fetching included), so a rule that expands forever cannot hold a core after
 * its time; at most MAX_THREADS at once.
 */
export function createIcsThreads(max = MAX_THREADS) {
  const slot = createSlots(max);
  return { parse: (body: string, limits: ParseLimits) => parseInThread(slot, body, limits) };
}

export type IcsThreads = ReturnType<typeof createIcsThreads>;

async function parseInThread(
  slot: () => Promise<() => void>,
  body: string,
  limits: ParseLimits,
): Promise<Occurrence[]> {
  const release = await slot();
  const worker = spawn();
  try {
    return await new Promise<Occurrence[]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new IcsError('timeout')), Math.max(0, limits.deadline - Date.now()));
      worker.once('message', (m: { ok: true; occurrences: Occurrence[] } | { ok: false; reason: IcsFailure }) => {
        clearTimeout(timer);
        if (m.ok) resolve(m.occurrences);
        else reject(new IcsError(m.reason));
      });
      worker.once('error', (err) => {
        clearTimeout(timer);
        reject(err.message.includes('memory') ? new IcsError('too_many') : err);
      });
      worker.postMessage({ body, limits });
    });
  } finally {
    release();
    void worker.terminate();
  }
}
