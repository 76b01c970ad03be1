// Real-time messaging at campus scale (issues 6 and 16). Loopback clients, one per user: 1,000 users in 500
// one-to-one chats and 50 groups of 10; 80 % of the messages go to chats, 20 % to groups (9 others each). Every
// delivery is timed send → receive; lost and duplicated deliveries are counted. Our messages are sent as the web
// app sends them, the socket's `send` op on each student's socket, acknowledged after the commit (BENCH_SEND=http:
// POST …/messages over a keep-alive connection per student instead, the seeding route). Each step also prints the
// server's and the database's CPU-seconds per 1,000 messages and the database transactions per message.
// Runs (BENCH_RUNS, all by default):
//   echo      a bare `ws` server forwarding the same frames (the floor of this machine)
//   pglite    the real server on PGlite (one instance)
//   pg        the real server on PostgreSQL (one instance)
//   pg2       two instances on one PostgreSQL database, clients split between them (LISTEN/NOTIFY)
//   ejabberd  ejabberd from Debian's packages (installed when missing and running as root, else skipped with a
//             loud line), on a loopback port, SQL storage in its own database on the same PostgreSQL, message
//             archive (mod_mam) on; the same users in one-to-one chats and MUC rooms of 10, driven by
//             @xmpp/client at the same rates (bench/chat/ejabberd.ts)
//   crowd     10,000 connected students on PostgreSQL (one instance): 1,000 send at 500 msg/s, the other 9,000
//             are idle but listening (their own topic and their chat's); server RSS, memory per socket, p99.
//             A crowd needs an open file per socket in the bench and in the server: the limit is raised with
//             prlimit (root with CAP_SYS_RESOURCE), else the leg is skipped with a loud line. Past 80 % of
//             ip_local_port_range per source address the client sockets are spread over 127.0.0.2, 127.0.0.3, …
//             (said loudly). BENCH_CROWD=50000 is issue 29's target (≤ 1.5 GB RSS, p99 < 20 ms).
// Modes (BENCH_MODE):
//   ramp      (default) after BENCH_WARMUP_SECONDS (5) not counted, each run raises the rate in steps of
//             BENCH_STEP_SECONDS (20) — 250, 500, 1,000, 1,500, 2,000 … msg/s — until delivery p99 passes 50 ms or
//             anything is lost, duplicated or refused, and keeps the highest rate held (every step below it held
//             too); steps up to 500 msg/s always run (the table's reference rate). Then
//             one table: highest rate held, p50/p95/p99 at 500 msg/s, server CPU and RSS, ours ÷ ejabberd.
//   fixed     each run at one rate (BENCH_RATE, 500; PGlite BENCH_RATE_PGLITE, 200) for BENCH_SECONDS (60)
// Every step prints server CPU and RSS, the database backends' CPU, and the bench process's own CPU and
// event-loop delay (the clients must not be the bottleneck), and the load average (the machine must be quiet).
//   npm run bench chat                                   (everything, ~15–20 min)
//   BENCH_RUNS=pg BENCH_STEP_SECONDS=5 npm run bench chat (one leg, short steps)
// Env: BENCH_USERS (1000), BENCH_RATES (250,500,1000,1500,2000,2500,3000,3500,4000), BENCH_P99_LIMIT (50),
//      BENCH_CROWD (10000), BENCH_CROWD_SENDERS (1000), BENCH_CROWD_RATE (500), BENCH_CROWD_IDLE_SECONDS (20),
//      BENCH_CROWD_PER_ADDRESS (80 % of the ephemeral ports), BENCH_HANDSHAKES (64 socket handshakes in flight),
//      BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres),
//      BENCH_SERVER_NODE_ARGS (extra node flags for our servers, e.g. --cpu-prof), BENCH_SEND (socket, the default, or http).
// Helpers in bench/chat/: load.ts (population, steps, ramp), ours.ts (echo and our server), ejabberd.ts,
// seed.ts (bulk seeding), echo-server.ts, util.ts.
import { availableParallelism, loadavg } from 'node:os';
import { ensureEjabberd, ejabberdTarget } from './chat/ejabberd.ts';
import {
  describeStep,
  Driver,
  fmt,
  GROUP_SHARE,
  population,
  ramp,
  talkers,
  type RampResult,
  type StepResult,
  type Target,
} from './chat/load.ts';
import { echoTarget, rssOf, serverTarget } from './chat/ours.ts';
import { ephemeralPorts, procStats, raiseOpenFiles, sleep, withDatabase } from './chat/util.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const MODE = process.env.BENCH_MODE ?? 'ramp';
const RUNS = (process.env.BENCH_RUNS ?? 'echo,pglite,pg,pg2,ejabberd,crowd').split(',');
const USERS = num('BENCH_USERS', 1000);
const GROUPS = Math.min(50, Math.floor(USERS / 10));
const STEP_SECONDS = num('BENCH_STEP_SECONDS', 20);
const RATES = (process.env.BENCH_RATES ?? '250,500,1000,1500,2000,2500,3000,3500,4000').split(',').map(Number);
const P99_LIMIT = num('BENCH_P99_LIMIT', 50);
const WARMUP_SECONDS = num('BENCH_WARMUP_SECONDS', 5);
const REFERENCE_RATE = 500;
const DRAIN_MS = 10_000;
const SECONDS = num('BENCH_SECONDS', 60);
const RATE = num('BENCH_RATE', 500);
const RATE_PGLITE = num('BENCH_RATE_PGLITE', 200);
const CROWD = num('BENCH_CROWD', 10_000);
const CROWD_SENDERS = num('BENCH_CROWD_SENDERS', 1000);
const CROWD_RATE = num('BENCH_CROWD_RATE', 500);
const CROWD_IDLE_SECONDS = num('BENCH_CROWD_IDLE_SECONDS', 20);
/** Client sockets per loopback source address (each has ip_local_port_range's ports towards the server). */
const CROWD_PER_ADDRESS = num('BENCH_CROWD_PER_ADDRESS', Math.floor(ephemeralPorts() * 0.8));

if (MODE !== 'ramp' && MODE !== 'fixed') throw new Error(`BENCH_MODE must be ramp or fixed, not ${MODE}`);

interface Run {
  name: string;
  ours: boolean;
  steps: StepResult[];
  ramp?: RampResult;
  /** The crowd run: memory before and after its sockets connected. */
  crowd?: { sockets: number; idleMb: number; connectedMb: number; settledMb: number; idleCpu: number };
  skipped?: string;
}

/** Runs the target in the chosen mode, then closes it. */
async function drive(run: Run, target: Target, fixedRate: number, convs = talkers(population(USERS, GROUPS), USERS)) {
  const driver = new Driver(target, convs);
  try {
    if (MODE === 'ramp') {
      run.ramp = await ramp(driver, run.name, {
        warmupSeconds: WARMUP_SECONDS,
        rates: RATES,
        seconds: STEP_SECONDS,
        drainMs: DRAIN_MS,
        p99Limit: P99_LIMIT,
        atLeast: REFERENCE_RATE,
      });
      run.steps = run.ramp.steps;
    } else {
      const s = await driver.step(fixedRate, SECONDS, DRAIN_MS, P99_LIMIT);
      console.log(describeStep(run.name, s));
      run.steps = [s];
    }
    if (target.stored) console.log(`  ${run.name}: ${await target.stored(driver.sent)}`);
  } finally {
    await target.close();
  }
}

const cpuOf = (pids: number[]) => pids.reduce((sum, pid) => sum + procStats(pid).cpu, 0);

/**
 * What a crowd needs of the machine: open files for a socket each in the bench and in the server (raised with
 * prlimit when running as root), and loopback source addresses enough for its client sockets (127.0.0.2, …:
 * each has its own ephemeral ports). Answers the addresses, or why the leg must be skipped.
 */
function crowdResources(): { sources: string[] } | { skip: string } {
  const skip = raiseOpenFiles(CROWD + 2048);
  if (skip) return { skip };
  const n = Math.ceil(CROWD / CROWD_PER_ADDRESS);
  if (n <= 1) return { sources: [] };
  if (n > 250) return { skip: `${n} loopback source addresses needed (BENCH_CROWD_PER_ADDRESS ${CROWD_PER_ADDRESS})` };
  const sources = Array.from({ length: n }, (_, k) => `127.0.0.${k + 2}`);
  console.log(
    `\n!!!!!! ${CROWD.toLocaleString('en')} client sockets spread over ${n} loopback source addresses ` +
      `${sources[0]}–${sources.at(-1)} (${CROWD_PER_ADDRESS.toLocaleString('en')} each: loopback has ` +
      `${ephemeralPorts().toLocaleString('en')} ephemeral ports per source address) !!!!!!\n`,
  );
  return { sources };
}

async function crowdRun(): Promise<Run> {
  const run: Run = { name: `${CROWD.toLocaleString('en')} students, PostgreSQL`, ours: true, steps: [] };
  const resources = crowdResources();
  if ('skip' in resources) {
    console.log(`\n!!!!!! SKIPPED the crowd leg of ${CROWD.toLocaleString('en')}: ${resources.skip} !!!!!!\n`);
    return { ...run, skipped: `SKIPPED: ${resources.skip}`.slice(0, 200) };
  }
  const pop = population(CROWD, GROUPS);
  let idleMb = 0;
  await withDatabase('sb_bench_chat', async (url, name) => {
    const target = await serverTarget(pop, {
      name: run.name,
      instances: 1,
      database: { url, name },
      idleFrom: CROWD_SENDERS,
      sourceAddresses: resources.sources,
      beforeSockets: (pids) => (idleMb = rssOf(pids)),
    });
    const connectedMb = rssOf(target.pids);
    try {
      // What the open sockets cost when nobody writes: heartbeats (one ping per socket per 20 s).
      const cpu0 = cpuOf(target.pids);
      await sleep(CROWD_IDLE_SECONDS * 1000);
      const idleCpu = (cpuOf(target.pids) - cpu0) / CROWD_IDLE_SECONDS;
      // Right after the handshakes RSS still holds their garbage; after the idle spell, what the sockets keep.
      const settledMb = rssOf(target.pids);
      run.crowd = { sockets: CROWD, idleMb, connectedMb, settledMb, idleCpu };
      console.log(
        `  ${run.name}: server RSS ${fmt(idleMb, 0)} MB before the sockets, ${fmt(connectedMb, 0)} MB with ` +
          `${CROWD} open (${fmt(((connectedMb - idleMb) * 1024) / CROWD)} KB per socket), ${fmt(settledMb, 0)} MB ` +
          `after ${CROWD_IDLE_SECONDS} s idle (${fmt(((settledMb - idleMb) * 1024) / CROWD)} KB per socket); ` +
          `CPU ${fmt(idleCpu * 100)}% with all of them idle for ${CROWD_IDLE_SECONDS} s; load ${loadavg()
            .map((l) => l.toFixed(2))
            .join(' ')}`,
      );
      const driver = new Driver(target, talkers(pop, CROWD_SENDERS));
      if (WARMUP_SECONDS > 0) await driver.step(CROWD_RATE, WARMUP_SECONDS, DRAIN_MS, P99_LIMIT);
      const s = await driver.step(CROWD_RATE, MODE === 'ramp' ? STEP_SECONDS : SECONDS, DRAIN_MS, P99_LIMIT);
      console.log(describeStep(run.name, s));
      run.steps = [s];
    } finally {
      await target.close();
    }
  });
  return run;
}

async function runOne(kind: string): Promise<Run | null> {
  const pop = population(USERS, GROUPS);
  switch (kind) {
    case 'echo': {
      const run: Run = { name: 'bare ws echo', ours: false, steps: [] };
      await drive(run, await echoTarget(pop), RATE);
      return run;
    }
    case 'pglite': {
      const run: Run = { name: 'server, PGlite', ours: true, steps: [] };
      await drive(run, await serverTarget(pop, { name: run.name, instances: 1 }), RATE_PGLITE);
      return run;
    }
    case 'pg':
    case 'pg2': {
      const instances = kind === 'pg' ? 1 : 2;
      const run: Run = {
        name: instances === 1 ? 'server, PostgreSQL' : '2 servers, one PostgreSQL',
        ours: true,
        steps: [],
      };
      await withDatabase('sb_bench_chat', async (url, name) =>
        drive(run, await serverTarget(pop, { name: run.name, instances, database: { url, name } }), RATE),
      );
      return run;
    }
    case 'ejabberd': {
      const run: Run = { name: 'ejabberd, PostgreSQL', ours: false, steps: [] };
      const skip = ensureEjabberd();
      if (skip) {
        console.log(`\n!!!!!! SKIPPED the ejabberd leg: ${skip} !!!!!!\n`);
        return { ...run, skipped: `SKIPPED: ${skip}` };
      }
      await withDatabase('sb_bench_ejabberd', async (url, name) =>
        drive(run, await ejabberdTarget(pop, { url, name }), RATE),
      );
      return run;
    }
    case 'crowd':
      return crowdRun();
    default:
      throw new Error(`unknown run ${kind} (echo, pglite, pg, pg2, ejabberd, crowd)`);
  }
}

function report(runs: Run[]) {
  const reference = (r: Run) =>
    r.steps.find((s) => s.rate === REFERENCE_RATE) ?? (MODE === 'fixed' ? r.steps[0] : undefined);
  const held = (r: Run) => (r.ramp ? r.ramp.held : null);
  const heldText = (r: Run) => {
    if (r.ramp) return r.ramp.held ? `${r.ramp.held}${r.ramp.capped ? '+' : ''}` : `<${RATES[0]}`;
    // A run at one rate: whether it held there.
    const s = r.steps[0];
    return s ? `${s.held ? '' : 'not '}${s.rate}` : '–';
  };
  const peer = runs.find((r) => r.name.startsWith('ejabberd') && !r.skipped);
  const peerRef = peer && reference(peer);
  console.log(
    `\nChat send → receive, ${USERS} users (${USERS / 2} chats, ${GROUPS} groups of 10, ${GROUP_SHARE * 100} % of messages to groups); ` +
      (MODE === 'ramp'
        ? `ramp of ${STEP_SECONDS} s steps (${RATES.join(', ')} msg/s) held while p99 ≤ ${P99_LIMIT} ms and nothing lost`
        : `${SECONDS} s per run`),
  );
  console.log(
    `machine: ${availableParallelism()} cores, load average now ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const head = [
    'run'.padEnd(28),
    'load'.padStart(5),
    'held msg/s'.padStart(10),
    'rate'.padStart(6),
    'p50 ms'.padStart(7),
    'p95 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'ack p99'.padStart(8),
    'lost'.padStart(5),
    'dup'.padStart(4),
    'CPU %'.padStart(6),
    'DB CPU %'.padStart(9),
    'RSS MB'.padStart(7),
    'p99 ÷ ejabberd'.padStart(15),
    'held ÷ ejabberd'.padStart(16),
  ];
  console.log(head.join(' '));
  for (const r of runs) {
    if (r.skipped) {
      console.log(`${r.name.padEnd(28)} ${r.skipped}`);
      continue;
    }
    const ref = reference(r);
    const load = r.steps.reduce((s, x) => s + x.load1, 0) / Math.max(1, r.steps.length);
    const p99Ratio = r.ours && ref && peerRef ? `${fmt(ref.p99 / peerRef.p99, 2)}×` : '';
    const heldRatio =
      r.ours && r.ramp && peer?.ramp ? (held(peer) ? `${fmt((held(r) ?? 0) / held(peer)!, 2)}×` : '–') : '';
    console.log(
      [
        r.name.padEnd(28),
        fmt(load, 2).padStart(5),
        heldText(r).padStart(10),
        String(ref?.rate ?? '–').padStart(6),
        fmt(ref?.p50).padStart(7),
        fmt(ref?.p95).padStart(7),
        fmt(ref?.p99).padStart(7),
        fmt(ref?.ackP99).padStart(8),
        String(r.steps.reduce((s, x) => s + x.lost, 0)).padStart(5),
        String(r.steps.reduce((s, x) => s + x.duplicated, 0)).padStart(4),
        fmt(ref ? ref.cpu * 100 : null, 0).padStart(6),
        fmt(ref?.dbCpu === null || !ref ? null : ref.dbCpu * 100, 0).padStart(9),
        fmt(Math.max(...r.steps.map((s) => s.rssMb)), 0).padStart(7),
        p99Ratio.padStart(15),
        heldRatio.padStart(16),
      ].join(' '),
    );
  }
  console.log(
    '\np50/p95/p99, ack p99 (ours: send → acknowledged after the commit), CPU (server processes, 100 = one core) and' +
      ' DB CPU (the database backends) are taken at the reference rate; lost and dup add up every step; RSS is the' +
      ' largest seen; load is the 1-minute load average during the run.',
  );
  for (const r of runs) {
    if (!r.crowd) continue;
    const { sockets, idleMb, connectedMb, settledMb, idleCpu } = r.crowd;
    console.log(
      `${r.name}: ${CROWD_SENDERS} sending at ${CROWD_RATE} msg/s, the rest idle and subscribed; server RSS ` +
        `${fmt(idleMb, 0)} MB before the sockets, ${fmt(connectedMb, 0)} MB with ${sockets} open ` +
        `(${fmt(((connectedMb - idleMb) * 1024) / sockets)} KB per socket), ${fmt(settledMb, 0)} MB after ` +
        `${CROWD_IDLE_SECONDS} s idle (${fmt(((settledMb - idleMb) * 1024) / sockets)} KB per socket), CPU ${fmt(idleCpu * 100)}% while all idle, ` +
        `${fmt(Math.max(...r.steps.map((s) => s.rssMb)), 0)} MB at most under load.`,
    );
  }
}

const runs: Run[] = [];
let failures = 0;
for (const kind of RUNS) {
  console.log(`running ${kind}… (load average ${loadavg()[0]!.toFixed(2)})`);
  try {
    const run = await runOne(kind);
    if (run) runs.push(run);
  } catch (err) {
    // One leg failing must not cost the others (the whole bench takes a quarter of an hour).
    failures++;
    console.error(`\n!!!!!! the ${kind} leg FAILED: ${err instanceof Error ? err.stack : String(err)}\n`);
    // The table names the innermost error (a server's own, when it exited).
    const lines = String(err).split('\n');
    const cause = lines.filter((l) => /^\w*Error\b/.test(l)).at(-1) ?? lines[0]!;
    runs.push({ name: kind, ours: false, steps: [], skipped: `FAILED: ${cause.slice(0, 160)}` });
  }
}
report(runs);
process.exitCode = failures ? 1 : 0;
