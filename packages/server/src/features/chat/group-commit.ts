export interface GroupCommitOptions<In> {
  /** Most items in one write. */
  maxBatch?: number;
  /** Writes under way at once (1 keeps every item in submission order). */
  concurrency?: number;
  /**
   * Items of one key keep their submission order: a batch never takes an item whose key is in a write under
   * way, so with `concurrency` above 1 only items of different keys are written side by side.
   */
  keyOf?: (item: In) => string;
}

interface Entry<In, Out> {
  item: In;
  resolve(out: Out): void;
  reject(err: unknown): void;
}

/**
 * Group commit: items submitted while a write is under way are queued and written together by the next one,
 * so a busy server writes many items per transaction and an idle one writes each at once (no fixed delay).
 *
 * `write` gets a batch and answers one outcome per item, in the same order; it either commits the whole batch
 * or throws. When a batch of several fails, each of its items is written again on its own, so one bad item
 * fails only itself and never takes the others' outcomes with it.
 */
export class GroupCommit<In, Out> {
  private readonly queue: Entry<In, Out>[] = [];
  private readonly busyKeys = new Set<string>();
  private running = 0;
  private scheduled = false;
  private readonly maxBatch: number;
  private readonly concurrency: number;
  /** Sizes of the writes so far, single retries included (the last 1,000), for tests and figures. */
  readonly batchSizes: number[] = [];

  constructor(
    private readonly write: (items: In[]) => Promise<Out[]>,
    private readonly options: GroupCommitOptions<In> = {},
  ) {
    this.maxBatch = options.maxBatch ?? 200;
    this.concurrency = options.concurrency ?? 1;
  }

  submit(item: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Items waiting for a write (not counting those under way). */
  get pending(): number {
    return this.queue.length;
  }

  private schedule() {
    if (this.running >= this.concurrency || this.scheduled || !this.queue.length) return;
    // Waits for the end of this turn of the event loop: what arrived in the same read joins the batch.
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  /** The next batch: the oldest items whose keys are not being written, in order. */
  private take(): { batch: Entry<In, Out>[]; keys: Set<string> } {
    const batch: Entry<In, Out>[] = [];
    const keys = new Set<string>();
    const keyOf = this.options.keyOf;
    let kept = 0;
    for (const entry of this.queue) {
      const key = keyOf?.(entry.item);
      if (batch.length < this.maxBatch && (key === undefined || !this.busyKeys.has(key))) {
        batch.push(entry);
        if (key !== undefined) keys.add(key);
      } else {
        this.queue[kept++] = entry;
      }
    }
    this.queue.length = kept;
    return { batch, keys };
  }

  private async flush() {
    if (this.running >= this.concurrency || !this.queue.length) return;
    const { batch, keys } = this.take();
    if (!batch.length) return;
    this.running += 1;
    for (const key of keys) this.busyKeys.add(key);
    // Room for another write of other keys.
    this.schedule();
    try {
      await this.settle(batch);
    } finally {
      this.running -= 1;
      for (const key of keys) this.busyKeys.delete(key);
      this.schedule();
    }
  }

  private async settle(batch: Entry<In, Out>[]) {
    this.batchSizes.push(batch.length);
    if (this.batchSizes.length > 1000) this.batchSizes.splice(0, this.batchSizes.length - 1000);
    try {
      const outs = await this.write(batch.map((b) => b.item));
      if (outs.length !== batch.length) throw new Error(`group commit: ${outs.length} outcomes for ${batch.length}`);
      batch.forEach((b, i) => b.resolve(outs[i]!));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]!.reject(err);
        return;
      }
      for (const b of batch) await this.settle([b]);
    }
  }
}
