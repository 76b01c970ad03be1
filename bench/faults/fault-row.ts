// One row of the fault bench's table (`npm run bench faults`): what students saw while one fault was injected on
// one database leg, and whether the case's targets were met. Every case module under bench/faults/ exports
// `run(): Promise<FaultRow[]>`; faults.bench.ts prints the rows grouped by case.
export interface FaultRow {
  /** The case and the step within it, e.g. '1 PostgreSQL restart (pg_ctl restart -m fast)'. */
  case: string;
  leg: 'pg' | 'pglite';
  /** What students saw while the fault lasted: status codes and close codes with counts, e.g. '503×41, ws 1012×200'. */
  sawErrors: string;
  /** Sockets that reconnected. */
  reconnects: number;
  /** Acknowledged messages (or uploads, jobs) missing afterwards; target 0. */
  lost: number;
  /** Messages (or jobs) stored or delivered twice; target 0. */
  duplicates: number;
  /** Time from the fault's end until every socket is back and /api/health/ready answers ready; null when never. */
  backWithinMs: number | null;
  /** The server's resident set size at the end of the case, in MB. */
  rssMb: number;
  /** What was left half-written (staged uploads, torn files, unopenable database), or 'nothing'. */
  halfWritten: string;
  verdict: 'met' | 'missed';
  notes?: string;
}
