// Static checks of the container files (issue 26 point 2), cheap enough for every `npm test`: the images
// themselves are built and run by `npm run test:container` (container.podman.ts), which needs podman and minutes.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

interface Instruction {
  op: string;
  args: string;
}

/** A Containerfile's instructions (continuation lines joined, comments dropped), split into its stages. */
function stages(file: string): Instruction[][] {
  const joined = read(file)
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const result: Instruction[][] = [];
  for (const line of joined.split('\n')) {
    const m = line.trim().match(/^([A-Z]+)\s+(.*)$/);
    if (!m) continue;
    if (m[1] === 'FROM') result.push([]);
    result.at(-1)!.push({ op: m[1]!, args: m[2]!.replace(/\s+/g, ' ').trim() });
  }
  return result;
}

const CONTAINERFILES = [
  'Containerfile',
  'scripts/container/postgres.Containerfile',
  'scripts/container/s3.Containerfile',
];

/** The host paths a Containerfile's COPY instructions (without --from) read from the build context. */
function copiedSources(file: string): string[] {
  return stages(file)
    .flat()
    .filter((i) => i.op === 'COPY' && !i.args.startsWith('--from'))
    .flatMap((i) => i.args.split(' ').slice(0, -1));
}

interface ComposeService {
  build?: { context?: string; dockerfile?: string };
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, unknown>;
  healthcheck?: { test?: string[] };
  stop_grace_period?: string;
}

describe('container files', () => {
  it('the image builds with dev dependencies and runs as a non-root user with production ones only', () => {
    const [build, run, ...more] = stages('Containerfile');
    expect(more).toEqual([]);
    // The ordinary base for those who can pull it (make-base-image.sh makes it locally where none can).
    expect(build![0]).toEqual({ op: 'FROM', args: 'debian:trixie-slim AS build' });
    expect(run![0]).toEqual({ op: 'FROM', args: 'debian:trixie-slim' });

    const buildRuns = build!.filter((i) => i.op === 'RUN').map((i) => i.args);
    expect(buildRuns.some((r) => /npm ci --include=dev/.test(r))).toBe(true);
    expect(buildRuns.some((r) => /npm ci --omit=dev .*--workspace packages\/server/.test(r))).toBe(true);
    expect(buildRuns).toContain('npm run build');

    // The final stage has Node.js but no npm and nothing from the build stage but the production tree and dist.
    const runInstall = run!.find((i) => i.op === 'RUN' && i.args.includes('apt-get install'))!.args;
    expect(runInstall).toMatch(/\bnodejs\b/);
    expect(runInstall).not.toMatch(/\bnpm\b/);
    const fromBuild = run!.filter((i) => i.op === 'COPY' && i.args.startsWith('--from=build')).map((i) => i.args);
    expect(fromBuild).toEqual([
      '--from=build /prod/ ./',
      '--from=build /src/packages/server/dist packages/server/dist',
      '--from=build /src/packages/web/dist packages/web/dist',
    ]);

    const user = run!.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(user).toHaveLength(1);
    expect(user[0]).not.toMatch(/^(root|0)\b/);
    const cmd = JSON.parse(run!.find((i) => i.op === 'CMD')!.args) as string[];
    // node itself gets the runtime's SIGTERM (npm would exit before the server drained).
    expect(cmd[0]).toBe('node');
    expect(cmd).toContain('packages/server/dist/main.js');
    expect(run!.find((i) => i.op === 'STOPSIGNAL')?.args).toBe('SIGTERM');
  });

  it('DATA_DIR is a volume and the HEALTHCHECK asks /api/health/ready', () => {
    const run = stages('Containerfile')[1]!;
    const env = run
      .filter((i) => i.op === 'ENV')
      .map((i) => i.args)
      .join(' ');
    const dataDir = env.match(/\bDATA_DIR=(\S+)/)?.[1];
    expect(dataDir).toBe('/data');
    expect(run.find((i) => i.op === 'VOLUME')?.args).toBe(dataDir);

    const healthcheck = run.find((i) => i.op === 'HEALTHCHECK')!.args;
    const script = healthcheck.match(/CMD \["node", "([^"]+)"\]/)?.[1];
    expect(script).toBe('scripts/container/healthcheck.mjs');
    expect(copiedSources('Containerfile')).toContain(script);
    expect(read(script!)).toContain('/api/health/ready');
  });

  it("the build copies every workspace's package.json and the context leaves out installs and builds", () => {
    const workspaces = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    const manifests = copiedSources('Containerfile').filter((s) => s.endsWith('/package.json'));
    expect(manifests.sort()).toEqual(workspaces.map((w) => `${w}/package.json`).sort());
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['**/node_modules', '**/dist', '.git', 'data']) expect(ignored).toContain(entry);
  });

  it.each(CONTAINERFILES)('every file %s copies from the context exists', (file) => {
    const sources = copiedSources(file);
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(existsSync(path.join(root, source)), source).toBe(true);
  });

  it('the shell scripts parse and can be run', () => {
    for (const script of ['scripts/container/make-base-image.sh', 'scripts/container/postgres-entrypoint.sh']) {
      const check = spawnSync('sh', ['-n', path.join(root, script)], { encoding: 'utf8' });
      expect(check.status, `${script}: ${check.stderr}`).toBe(0);
      expect(statSync(path.join(root, script)).mode & 0o111, `${script} is executable`).not.toBe(0);
    }
  });

  it('compose.yaml has the app, PostgreSQL and an S3 store, wired together, each with a volume', () => {
    const compose = parse(read('compose.yaml')) as {
      services: Record<string, ComposeService>;
      volumes: Record<string, unknown>;
    };
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'postgres', 's3']);
    for (const [name, service] of Object.entries(compose.services)) {
      const dockerfile = path.join(service.build?.context ?? '.', service.build?.dockerfile ?? 'Containerfile');
      expect(CONTAINERFILES, name).toContain(dockerfile);
      expect(service.image, name).toMatch(/^localhost\//);
      expect(service.healthcheck?.test?.[0], name).toBe('CMD');
      const named = (service.volumes ?? []).map((v) => v.split(':')[0]!);
      expect(named.length, `${name} keeps its data in a volume`).toBeGreaterThan(0);
      for (const volume of named) expect(Object.keys(compose.volumes), name).toContain(volume);
    }

    const app = compose.services.app!;
    expect(Object.keys(app.depends_on ?? {}).sort()).toEqual(['postgres', 's3']);
    expect(app.volumes).toEqual(['app-data:/data']);
    expect(app.healthcheck?.test).toEqual(['CMD', 'node', 'scripts/container/healthcheck.mjs']);
    expect(app.stop_grace_period).toBe('15s');
    const env = app.environment!;
    const db = new URL(env.DATABASE_URL!.replace('${POSTGRES_PASSWORD:-studybuddy}', 'pw'));
    const pg = compose.services.postgres!.environment!;
    expect(db.hostname).toBe('postgres');
    expect(db.username).toBe(pg.POSTGRES_USER);
    expect(db.pathname).toBe(`/${pg.POSTGRES_DB}`);
    expect(env.STORAGE).toBe('s3');
    expect(new URL(env.S3_ENDPOINT!).hostname).toBe('s3');
    expect(compose.services.s3!.environment!.S3_BUCKETS!.split(',')).toContain(env.S3_BUCKET);
  });
});
