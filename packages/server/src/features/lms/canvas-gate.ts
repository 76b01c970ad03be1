/**
 * Admission for one user's Canvas requests: at most `maxInFlight` at once, and a shared pause that every
 * request waits out (set after throttling, or when X-Rate-Limit-Remaining runs low).
 */
export class CanvasGate {
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  private pausedUntil = 0;

  constructor(
    readonly maxInFlight: number,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  get active(): number {
    return this.inFlight;
  }

  get idle(): boolean {
    return this.inFlight === 0 && this.waiters.length === 0;
  }

  /**
   * Waits for a slot (and any pause); call the returned function when the request has ended. `urgent` requests
   * (the next page of a list already started) go before the queue, so started lists finish first.
   */
  async acquire(urgent = false): Promise<() => void> {
    if (this.inFlight >= this.maxInFlight) {
      await new Promise<void>((resolve) => (urgent ? this.waiters.unshift(resolve) : this.waiters.push(resolve)));
    } else this.inFlight++;
    let wait = this.pausedUntil - Date.now();
    while (wait > 0) {
      await this.sleep(wait);
      wait = this.pausedUntil - Date.now();
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters.shift();
      // The slot passes straight to the next waiter; the count only drops when nobody waits.
      if (next) next();
      else this.inFlight--;
    };
  }

  /** Delays every request that starts within the next `ms`. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }
}

/** One gate per user, dropped when idle (so the bound holds across a user's parallel loads in this process). */
export class CanvasGates {
  private gates = new Map<string, CanvasGate>();
  constructor(private readonly maxInFlight = 6) {}

  for(userId: string): CanvasGate {
    if (this.gates.size > 64) {
      for (const [id, gate] of this.gates) if (id !== userId && gate.idle) this.gates.delete(id);
    }
    let gate = this.gates.get(userId);
    if (!gate) {
      gate = new CanvasGate(this.maxInFlight);
      this.gates.set(userId, gate);
    }
    return gate;
  }
}
