/**
 * Canvas's request throttle (app/middleware/request_throttle.rb): a leaky bucket per access token.
 * Each request in flight holds an up-front cost; when it ends, its real cost stays in the bucket, which drains
 * at `outflowPerSec`. A request that finds the bucket at or above the high-water mark is refused.
 */
export interface ThrottleOptions {
  /** 429 (Canvas since Oct 2025, the default) or 403 with a text body (older and self-hosted instances). */
  mode: 429 | 403;
  hwm: number;
  outflowPerSec: number;
  upFrontCost: number;
  /** Cost left in the bucket by one finished request. */
  costPerRequest: number;
}

export const CANVAS_THROTTLE: ThrottleOptions = {
  mode: 429,
  hwm: 600,
  outflowPerSec: 10,
  upFrontCost: 50,
  costPerRequest: 1,
};

interface Bucket {
  level: number;
  at: number;
}

export class Throttle {
  private buckets = new Map<string, Bucket>();
  constructor(readonly options: ThrottleOptions) {}

  private bucket(key: string, now: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { level: 0, at: now };
      this.buckets.set(key, b);
    }
    b.level = Math.max(0, b.level - ((now - b.at) / 1000) * this.options.outflowPerSec);
    b.at = now;
    return b;
  }

  /** Admits a request (reserving its up-front cost) or refuses it; `remaining` is hwm minus the bucket. */
  begin(key: string, now = Date.now()): { allowed: boolean; remaining: number } {
    const b = this.bucket(key, now);
    if (b.level >= this.options.hwm) return { allowed: false, remaining: 0 };
    b.level += this.options.upFrontCost;
    return { allowed: true, remaining: Math.max(0, this.options.hwm - b.level) };
  }

  /** Ends an admitted request: refunds the up-front cost, keeps the real one. */
  end(key: string, now = Date.now()): number {
    const b = this.bucket(key, now);
    b.level = Math.max(0, b.level - this.options.upFrontCost + this.options.costPerRequest);
    return Math.max(0, this.options.hwm - b.level);
  }
}
