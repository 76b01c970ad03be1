import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FLASHCARDS_MSG } from '@studybuddy/shared/messages/flashcards';
import { AppError } from '../../platform/errors.ts';
import type { MadeCards, SourcePage } from './card-maker.ts';

const require = createRequire(import.meta.url);
// Built (build.mjs), every module sits flat in dist/ beside flashcards.worker.js; from source it is the .ts beside.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_URL = fromSource
  ? new URL('./flashcards.worker.ts', import.meta.url)
  : new URL('./flashcards.worker.js', import.meta.url);

function spawn(maxOldGenerationSizeMb: number): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb, stackSizeMb: 4 }, workerData: { nice: 10 } };
  if (!fromSource) return new Worker(WORKER_URL, options);
  // A worker's own execArgv cannot load .ts on Node 20: start it through tsx's loader.
  const tsx = pathToFileURL(require.resolve('tsx/esm/api')).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}

interface Task {
  pages: SourcePage[];
  max: number;
  resolve(value: MadeCards): void;
  reject(err: Error): void;
}

/** Past the budget's soft end the worker stops reading and answers with what it made; this much later it is killed. */
const HARD_MARGIN_MS = 5_000;

/**
 * One worker thread making cards, one document at a time, each within `budgetMs` counted from when it starts
 * (the worker stops reading at the budget and answers with the cards so far; one that does not answer soon after
 * is killed and the next task gets a fresh thread). At most `maxWaiting` tasks wait; more are refused as busy.
 */
export class CardLane {
  private worker: Worker | null = null;
  private queue: Task[] = [];
  private running = false;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: { budgetMs: number; maxWaiting: number; memoryMb: number; idleMs?: number }) {}

  run(pages: SourcePage[], max: number): Promise<MadeCards> {
    if (this.queue.length >= this.opts.maxWaiting) {
      return Promise.reject(new AppError(503, 'flashcards_busy', FLASHCARDS_MSG.flashcards.busy));
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ pages, max, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    for (const t of this.queue.splice(0)) t.reject(new Error('card lane closed'));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private pump() {
    if (this.running) return;
    const task = this.queue.shift();
    if (!task) return this.armIdle();
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.running = true;
    const worker = (this.worker ??= this.fresh());
    const id = this.nextId++;
    const finish = (fn: () => void) => {
      clearTimeout(kill);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      this.running = false;
      fn();
      this.pump();
    };
    const onMessage = (m: { id: number; value?: MadeCards; error?: string }) => {
      if (m.id !== id) return;
      finish(() => (m.error === undefined ? task.resolve(m.value!) : task.reject(new Error(m.error))));
    };
    const onExit = () => {
      if (this.worker === worker) this.worker = null;
      finish(() => task.reject(new AppError(503, 'flashcards_failed', FLASHCARDS_MSG.flashcards.generateFailed)));
    };
    const kill = setTimeout(() => {
      if (this.worker === worker) this.worker = null;
      void worker.terminate();
    }, this.opts.budgetMs + HARD_MARGIN_MS);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.postMessage({ id, pages: task.pages, deadline: Date.now() + this.opts.budgetMs, max: task.max });
  }

  private fresh(): Worker {
    const worker = spawn(this.opts.memoryMb);
    worker.unref();
    worker.on('error', () => undefined);
    return worker;
  }

  private armIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.running && this.worker) {
        void this.worker.terminate();
        this.worker = null;
      }
    }, this.opts.idleMs ?? 60_000);
    this.idleTimer.unref();
  }
}
