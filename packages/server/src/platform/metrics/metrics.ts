import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/connect.ts';
import type { Lifecycle } from '../lifecycle.ts';
import type { Realtime } from '../realtime/realtime.ts';
import { jobsReader } from './jobs-metrics.ts';
import { processMetrics } from './process-metrics.ts';

/** Label of requests no route matched (their raw URLs would make a label per probe of a scanner). */
export const UNMATCHED_ROUTE = 'unmatched';

/** Anything that reports how many tasks it has waiting or running (the documents feature's worker lanes). */
export interface Loaded {
  readonly load: number;
}

/** This app's metrics; `ctx.metrics`. */
export interface Metrics {
  readonly registry: Registry;
  readonly contentType: string;
  /** Prometheus text format: the process's metrics, then this app's. */
  text(): Promise<string>;
  /** `route` is the route's pattern (`/api/documents/:id`), never the URL. */
  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void;
  frameReceived(): void;
  frameSent(): void;
  /** Reports `lane.load` as `studybuddy_worker_lane_load{lane=name}`. */
  watchLane(name: string, lane: Loaded): void;
  /** The address of the separate metrics listener (METRICS_PORT) once it listens. */
  listenerUrl?: string;
}

export interface MetricsDeps {
  database: Database;
  realtime: Realtime;
  lifecycle: Lifecycle;
  log: FastifyBaseLogger;
}

const statusClass = (code: number) => `${Math.floor(code / 100)}xx`;

/**
 * A registry per app (tests build many apps in one process; the default global registry would mix them).
 * Gauges read their sources when scraped: sockets from the hub, queue depth from the jobs table, the pool and
 * the worker lanes; counters and the latency histogram are fed by hooks.
 */
export function createMetrics({ database, realtime, lifecycle, log }: MetricsDeps): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const lanes = new Map<string, Loaded>();

  const httpDuration = new Histogram({
    name: 'studybuddy_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });

  new Gauge({
    name: 'studybuddy_websocket_connections',
    help: 'Open WebSocket connections on this instance.',
    registers,
    collect() {
      this.set(realtime.hub.size);
    },
  });
  const framesIn = new Counter({
    name: 'studybuddy_websocket_frames_received_total',
    help: 'Frames received from WebSocket clients.',
    registers,
  });
  const framesOut = new Counter({
    name: 'studybuddy_websocket_frames_sent_total',
    help: 'Frames written to WebSocket clients.',
    registers,
  });
  const deliveries = new Counter({
    name: 'studybuddy_realtime_deliveries_total',
    help: 'Events from the bus delivered to sockets of this instance (one per socket reached), by event type.',
    labelNames: ['event'] as const,
    registers,
  });
  realtime.hub.onDeliver = (event, sockets) => deliveries.inc({ event }, sockets);
  const envelopes = new Counter({
    name: 'studybuddy_realtime_bus_envelopes_total',
    help: `Envelopes received from the ${realtime.bus.kind} event bus (every instance's publications).`,
    registers,
  });
  realtime.bus.subscribe(() => envelopes.inc());

  const jobs = jobsReader(database.db);
  const readJobs = async () => {
    try {
      return [...(await jobs.read()).values()];
    } catch (err) {
      log.warn({ err }, 'metrics: reading the job queue failed');
      return [];
    }
  };
  new Gauge({
    name: 'studybuddy_jobs_queued',
    help: 'Jobs waiting in the queue (all instances), by kind; includes retries waiting for their back-off.',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      for (const s of await readJobs()) this.set({ kind: s.kind }, s.queued);
    },
  });
  new Gauge({
    name: 'studybuddy_jobs_running',
    help: 'Jobs being run (all instances), by kind.',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      for (const s of await readJobs()) this.set({ kind: s.kind }, s.running);
    },
  });
  new Gauge({
    name: 'studybuddy_jobs_oldest_queued_age_seconds',
    help: 'How long the oldest due job of each kind has waited to be claimed (0 when none waits).',
    labelNames: ['kind'] as const,
    registers,
    async collect() {
      for (const s of await readJobs()) this.set({ kind: s.kind }, s.oldestQueuedSeconds);
    },
  });

  const poolStats = database.poolStats;
  if (poolStats) {
    new Gauge({
      name: 'studybuddy_db_pool_connections',
      help: 'PostgreSQL pool connections by state.',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const p = poolStats();
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'in_use' }, p.total - p.idle);
      },
    });
    new Gauge({
      name: 'studybuddy_db_pool_waiting_queries',
      help: 'Queries waiting for a free PostgreSQL pool connection.',
      registers,
      collect() {
        this.set(poolStats().waiting);
      },
    });
  }
  // PGlite (the embedded default) is one connection inside the process with no pool to report.

  new Gauge({
    name: 'studybuddy_worker_lane_load',
    help: 'Tasks waiting or running on each worker-thread lane (document extraction, summaries, answers).',
    labelNames: ['lane'] as const,
    registers,
    collect() {
      for (const [lane, source] of lanes) this.set({ lane }, source.load);
    },
  });
  new Gauge({
    name: 'studybuddy_ready',
    help: '1 while this instance takes traffic (readiness), 0 while starting or shutting down.',
    registers,
    collect() {
      this.set(lifecycle.ready ? 1 : 0);
    },
  });

  return {
    registry,
    contentType: registry.contentType,
    async text() {
      const [own, proc] = await Promise.all([registry.metrics(), processMetrics().metrics()]);
      return `${proc.trimEnd()}\n\n${own}`;
    },
    observeRequest(method, route, statusCode, seconds) {
      httpDuration.observe({ method, route: route ?? UNMATCHED_ROUTE, status_class: statusClass(statusCode) }, seconds);
    },
    frameReceived: () => framesIn.inc(),
    frameSent: () => framesOut.inc(),
    watchLane(name, lane) {
      lanes.set(name, lane);
    },
  };
}
