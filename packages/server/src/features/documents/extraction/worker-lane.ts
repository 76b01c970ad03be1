import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { MSG } from '@studybuddy/shared/messages';
import { ExtractionError, type WorkerEvent, type WorkerRequest } from './extract-types.ts';

const require = createRequire(import.meta.url);
// Built (build.mjs), this module and document.worker.js both sit flat in dist/; from source, the worker is
// src/features/documents/document.worker.ts.
const fromSource = import.meta.url.endsWith('.ts');
const WORKER_URL = fromSource
  ? new URL('../document.worker.ts', import.meta.url)
  : new URL('./document.worker.js', import.meta.url);

/** From source, starts the TypeScript worker through tsx's loader (a worker's own execArgv cannot load .ts on Node 20). */
function spawnWorker(resourceLimits: ResourceLimits, nice: number): Worker {
  const options = { resourceLimits, workerData: { nice } };
  if (!fromSource) return new Worker(WORKER_URL, options);
  const tsx = pathToFileURL(require.resolve('tsx/esm/api')).href;
  const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(WORKER_URL.href)}); });`;
  return new Worker(code, { ...options, eval: true });
}

/**
 * The thread's V8 limits: past them Node ends only this thread (ERR_WORKER_OUT_OF_MEMORY). Native memory
 * (decoded images in canvas, sharp, pdf.js buffers) is outside them: the decoders' pixel caps bound that.
 */
const heapLimits = (maxOldGenerationSizeMb: number, youngCapMb: number): ResourceLimits => ({
  maxOldGenerationSizeMb,
  maxYoungGenerationSizeMb: Math.min(youngCapMb, Math.max(8, Math.floor(maxOldGenerationSizeMb / 8))),
  stackSizeMb: 4,
});

type Request =
  Exclude<WorkerRequest, { op: 'stop' }> extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Task {
  req: Request;
  transfer: ArrayBuffer[];
  onEvent?: (e: WorkerEvent) => void;
  signal?: AbortSignal;
  resolve(value: unknown): void;
  reject(err: Error): void;
}

export interface LaneOptions {
  /** A fresh thread after this many tasks keeps memory from creeping up. */
  maxTasksPerWorker?: number;
  /** An idle thread (and its OCR engine) is stopped after this long. */
  idleMs?: number;
  /** A task that reports nothing for this long is killed with its thread. */
  stallMs?: number;
  /** The thread's old-generation heap (config.limits.workerMemoryMb); past it only the thread ends. */
  maxOldGenerationSizeMb?: number;
  /** The thread's nice value (Linux): 10 by default, so the API's thread wins whenever both want the CPU. */
  nice?: number;
  /**
   * Cap of the thread's young generation (64 MB by default). Smaller trades time for memory: pdf.js reading 24 MB
   * of garbage peaked ~50 MB lower with 16, while text analysis spent twice as long collecting garbage.
   */
  maxYoungGenerationSizeMb?: number;
}

/** One recycled worker thread running tasks one after another. */
export class WorkerLane {
  private worker: Worker | null = null;
  private tasksOnWorker = 0;
  private queue: Task[] = [];
  private current: (Task & { id: number }) | null = null;
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly opts: Required<LaneOptions>;

  constructor(options: LaneOptions = {}) {
    this.opts = {
      maxTasksPerWorker: options.maxTasksPerWorker ?? 50,
      idleMs: options.idleMs ?? 30_000,
      stallMs: options.stallMs ?? 5 * 60_000,
      maxOldGenerationSizeMb: options.maxOldGenerationSizeMb ?? 1024,
      nice: options.nice ?? 10,
      maxYoungGenerationSizeMb: options.maxYoungGenerationSizeMb ?? 64,
    };
  }

  run<T>(
    req: Request,
    handlers: {
      onEvent?: (e: WorkerEvent) => void;
      signal?: AbortSignal;
      /** Asks the running task to end early at a safe point (it answers normally, with what it did). */
      softStop?: AbortSignal;
      transfer?: ArrayBuffer[];
    } = {},
  ): Promise<T> {
    if (this.closed) return Promise.reject(new Error('worker lane closed'));
    if (handlers.signal?.aborted) return Promise.reject(handlers.signal.reason as Error);
    return new Promise<T>((resolve, reject) => {
      const task: Task = {
        req,
        transfer: handlers.transfer ?? [],
        onEvent: handlers.onEvent,
        signal: handlers.signal,
        resolve: resolve as (v: unknown) => void,
        reject,
      };
      handlers.signal?.addEventListener(
        'abort',
        () => {
          if (this.current === task) this.kill(handlers.signal!.reason as Error);
          else {
            this.queue = this.queue.filter((t) => t !== task);
            reject(handlers.signal!.reason as Error);
          }
        },
        { once: true },
      );
      handlers.softStop?.addEventListener(
        'abort',
        () => {
          const current = this.current;
          if (current === task && this.worker) this.worker.postMessage({ op: 'stop', id: current.id });
        },
        { once: true },
      );
      this.queue.push(task);
      this.pump();
    });
  }

  /** Number of tasks waiting or running. */
  get load(): number {
    return this.queue.length + (this.current ? 1 : 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error('worker lane closed'));
    this.kill(new Error('worker lane closed'));
  }

  private ensureWorker(): Worker {
    if (this.worker && this.tasksOnWorker < this.opts.maxTasksPerWorker) return this.worker;
    if (this.worker) void this.worker.terminate();
    const worker = spawnWorker(
      heapLimits(this.opts.maxOldGenerationSizeMb, this.opts.maxYoungGenerationSizeMb),
      this.opts.nice,
    );
    worker.unref();
    worker.on('message', (e: WorkerEvent) => this.onMessage(e));
    worker.on('error', (err) => this.onCrash(worker, err));
    worker.on('exit', (code) => this.onCrash(worker, new Error(`document worker exited with code ${code}`)));
    this.worker = worker;
    this.tasksOnWorker = 0;
    return worker;
  }

  private pump() {
    if (this.current || this.closed) return;
    const task = this.queue.shift();
    if (!task) {
      this.armIdle();
      return;
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.ensureWorker();
    const id = this.nextId++;
    this.current = Object.assign(task, { id });
    this.tasksOnWorker++;
    this.armStall();
    worker.postMessage({ ...task.req, id }, task.transfer);
  }

  private onMessage(e: WorkerEvent) {
    const task = this.current;
    if (!task || e.id !== task.id) return;
    this.armStall();
    if (e.type === 'result') this.settle(() => task.resolve(e.value));
    else if (e.type === 'error') {
      const err = e.error.kind ? new ExtractionError(e.error.kind, e.error.message) : new Error(e.error.message);
      this.settle(() => task.reject(err));
    } else task.onEvent?.(e);
  }

  private settle(fn: () => void) {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.current = null;
    fn();
    this.pump();
  }

  private onCrash(worker: Worker, err: Error) {
    if (worker !== this.worker) return;
    this.worker = null;
    const task = this.current;
    if (!task) return;
    // A file that needs more memory than a thread may have is refused for good, not retried.
    const outOfMemory = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
    const reason =
      outOfMemory && task.req.op === 'extract' ? new ExtractionError('unreadable', MSG.courses.tooLargeToRead) : err;
    this.settle(() => task.reject(reason));
  }

  private kill(reason: Error) {
    const worker = this.worker;
    this.worker = null;
    const task = this.current;
    if (task) this.settle(() => task.reject(reason));
    if (worker) void worker.terminate();
  }

  private armStall() {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = setTimeout(() => this.kill(new Error('document worker stalled')), this.opts.stallMs);
    this.stallTimer.unref();
  }

  private armIdle() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (!this.current && !this.queue.length && this.worker) {
        void this.worker.terminate();
        this.worker = null;
      }
    }, this.opts.idleMs);
    this.idleTimer.unref();
  }
}
