import { sql } from 'drizzle-orm';
import type { Db } from '../../db/connect.ts';
import { jobs } from '../../db/schema.ts';

export interface JobKindState {
  kind: string;
  queued: number;
  running: number;
  /** Seconds the oldest due, unclaimed job has waited (0 when none is due). */
  oldestQueuedSeconds: number;
}

/** How long one reading of the jobs table serves scrapes (several gauges and scrapers share it). */
const CACHE_MS = 5000;

/**
 * Queue depth and age per job kind, read from the jobs table (so it counts every instance's work) on the
 * claim index, at most once per CACHE_MS. Kinds seen once keep reporting 0 after they drain.
 */
export function jobsReader(db: Db) {
  let cached: { at: number; states: Promise<Map<string, JobKindState>> } | undefined;
  const known = new Set<string>();

  async function query(): Promise<Map<string, JobKindState>> {
    const result = await db.execute(sql`
      select kind,
        (count(*) filter (where status = 'queued'))::int as queued,
        (count(*) filter (where status = 'running'))::int as running,
        coalesce(extract(epoch from now() - min(run_at) filter (where status = 'queued' and run_at <= now())), 0)::float8
          as oldest
      from ${jobs} where status in ('queued', 'running') group by kind`);
    const rows = (result as unknown as { rows: { kind: string; queued: number; running: number; oldest: number }[] })
      .rows;
    const states = new Map<string, JobKindState>();
    for (const kind of known) states.set(kind, { kind, queued: 0, running: 0, oldestQueuedSeconds: 0 });
    for (const r of rows) {
      known.add(r.kind);
      states.set(r.kind, {
        kind: r.kind,
        queued: Number(r.queued),
        running: Number(r.running),
        oldestQueuedSeconds: Math.max(0, Number(r.oldest)),
      });
    }
    return states;
  }

  return {
    read(): Promise<Map<string, JobKindState>> {
      const now = Date.now();
      if (!cached || now - cached.at >= CACHE_MS) {
        const states = query();
        cached = { at: now, states };
        // A failed reading is not kept: the next scrape asks again.
        states.catch(() => {
          if (cached?.states === states) cached = undefined;
        });
      }
      return cached.states;
    },
  };
}
