import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createECDH, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { Cron } from 'croner';
import {
  DEFAULT_UNIVERSITIES,
  readUniversitiesFile,
  UniversitiesFileError,
  type University,
} from './universities-config.ts';
import { loadConnectionLimits, type ConnectionLimits } from './connection-config.ts';

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  name: string;
}

/** The Google endpoints and client credentials (tests point the URLs at the calendar emulator). */
export interface GoogleConfig {
  clientId: string;
  clientSecret: string;
  authUrl: string;
  tokenUrl: string;
  revokeUrl: string;
  apiUrl: string;
}

export interface S3Config {
  endpoint?: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

/** Per-student quotas and decoder caps (hostile-input limits); every one has a QUOTA_* / *_MAX_* setting. */
export interface Limits {
  /** Largest decoded image, in pixels (profile pictures, chat images, OCR, PDF images). IMAGE_MAX_PIXELS */
  imageMaxPixels: number;
  /** Pages read from one document (text layer or OCR). DOCUMENT_MAX_PAGES */
  documentMaxPages: number;
  /** Heap of one document worker; past it only the worker ends. WORKER_MEMORY_MB */
  workerMemoryMb: number;
  /** Time a summary or answer of a request may take on its worker before it is refused. NLP_BUDGET_MS */
  nlpBudgetMs: number;
  /** Total bytes a student may keep in documents, chat files and images. QUOTA_STORAGE_MB */
  storageBytes: number;
  /** Course documents a student may add per day. QUOTA_DOCUMENTS_PER_DAY */
  documentsPerDay: number;
  /** Resumable (tus) uploads a student may start per day. QUOTA_UPLOADS_PER_DAY */
  uploadsPerDay: number;
  /** Unfinished resumable uploads a student may have staged at once. QUOTA_OPEN_UPLOADS */
  openUploads: number;
  /** Longest turn of one document's processing while other students' documents wait. DOCUMENT_SLICE_SECONDS */
  documentSliceMs: number;
  /** WebSocket connections one student may hold open at once. QUOTA_SOCKETS */
  socketsPerStudent: number;
  /** Friend requests a student may send per day. QUOTA_FRIEND_REQUESTS_PER_DAY */
  friendRequestsPerDay: number;
  /** Feedback messages per IP per hour. QUOTA_FEEDBACK_PER_HOUR */
  feedbackPerHour: number;
  /** API requests in work at once per session, or per IP without one (platform/fair-share). REQUESTS_IN_FLIGHT_PER_CLIENT */
  requestsPerClient: number;
  /** API requests in work at once per IP, all its sessions together. REQUESTS_IN_FLIGHT_PER_IP */
  requestsPerIp: number;
  /** Browsers a student may have push notifications on at once. QUOTA_PUSH_DEVICES */
  pushDevices: number;
  /** Reports a student may send per day. QUOTA_REPORTS_PER_DAY */
  reportsPerDay: number;
}

/** Web Push (features/push): the VAPID key pair and which push services the server will post to. */
export interface PushConfig {
  /** VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY (base64url, P-256), else generated once into DATA_DIR/vapid.json. */
  publicKey: string;
  privateKey: string;
  /** VAPID_SUBJECT: a mailto: or https: contact for the push services (default: MAIL_FROM's address). */
  subject: string;
  /**
   * PUSH_SERVICE_HOSTS: hosts (and their subdomains) a subscription's endpoint may name; the server posts to
   * them, so any other address is refused. Default: the push services of Chrome, Firefox, Edge and Safari.
   */
  serviceHosts: string[];
  /** PUSH_CA_FILE: an extra CA certificate (PEM) trusted for push services (a private push service, tests). */
  caFile?: string;
}

/** Where `/metrics` is exposed (platform/metrics): with a bearer token, on a port of its own, or not at all. */
export interface MetricsConfig {
  /** METRICS_TOKEN: `/metrics` on the main port answers only `Authorization: Bearer <token>`. */
  token?: string;
  /** METRICS_PORT: a separate listener that serves only `/metrics` (on METRICS_HOST). */
  port?: number;
  host: string;
}

/** Scheduled backups (platform/backup/backup-schedule.ts). */
export interface BackupConfig {
  /** BACKUP_SCHEDULE: a cron expression (5 fields, or 6 with seconds first) in the server's time zone; unset: none. */
  schedule?: string;
  /** BACKUP_KEEP: how many scheduled backups are kept, the newest. */
  keep: number;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  publicUrl: string;
  databaseUrl?: string;
  /** Schema for every table (PostgreSQL leg of the tests runs each suite in its own database). */
  smtpUrl?: string;
  mailFrom: string;
  storage: 'fs' | 's3';
  s3?: S3Config;
  oidc?: OidcConfig;
  /**
   * UNIVERSITIES_FILE (else the spec's three), with each CANVAS_URL_<KEY> applied as the university's Canvas address.
   * The only list of universities: sign-up, social sign-in, new profiles' college and the Canvas address read it.
   */
  universities: University[];
  /** UNIVERSITIES_FILE as given (undefined: the spec's three); named in messages about the list. */
  universitiesFile?: string;
  google?: GoogleConfig;
  llm?: { baseUrl: string; apiKey?: string; model: string };
  secretKey: string;
  push: PushConfig;
  /** Serve the built SPA from this folder when it exists. */
  webDist?: string;
  logLevel: string;
  /** Turn off per-IP/e-mail rate limits (never in production; some tests need bursts). */
  rateLimits: boolean;
  /** Length of the abuse-limit window (RATE_LIMIT_WINDOW seconds; tests shorten it). */
  rateLimitWindowMs: number;
  /**
   * TRUST_PROXY: who may say where a request came from (X-Forwarded-For/-Proto/-Host, X-Request-Id). A hop count
   * (the last N peers are proxies), the proxies' addresses and ranges, or false (none: the TCP peer is the client).
   */
  trustProxy: TrustProxy;
  metrics: MetricsConfig;
  /** Seed demo students (and later demo data) into an empty database at start. */
  demo: boolean;
  /** ADMINS: e-mails (lower-cased) of the accounts that are admins, besides those granted with `npm run admin`. */
  admins: string[];
  limits: Limits;
  backup: BackupConfig;
  /** Slow clients: header, body and idle timeouts and connections per address (connection-config.ts). */
  connections: ConnectionLimits;
}

export class ConfigError extends Error {}

/** Fastify's `trustProxy`, minus `true` (any peer, so any client, could name its own address). */
export type TrustProxy = false | number | string[];

/** Address ranges Fastify (proxy-addr) knows by name. */
export const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'] as const;

type Env = Record<string, string | undefined>;

function str(env: Env, key: string): string | undefined {
  const v = env[key]?.trim();
  return v ? v : undefined;
}

function url(env: Env, key: string, fallback?: string): string | undefined {
  const v = str(env, key) ?? fallback;
  if (v === undefined) return undefined;
  try {
    const u = new URL(v);
    if (!/^(https?|postgres(ql)?|smtps?|s3):$/.test(u.protocol)) throw new Error('protocol');
  } catch {
    throw new ConfigError(`${key} must be a valid URL, got "${v}"`);
  }
  return v.replace(/\/$/, '');
}

function port(env: Env): number {
  const raw = str(env, 'PORT') ?? '3000';
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`PORT must be an integer between 0 and 65535, got "${raw}"`);
  }
  return n;
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const v = str(env, key);
  if (v === undefined) return fallback;
  if (['1', 'true', 'yes'].includes(v.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(v.toLowerCase())) return false;
  throw new ConfigError(`${key} must be true or false, got "${v}"`);
}

/** `1` (hops), `10.0.0.5,10.1.0.0/16` (addresses, CIDR ranges, named ranges), or false; never `true`. */
function trustProxy(env: Env): TrustProxy {
  const raw = str(env, 'TRUST_PROXY');
  if (raw === undefined || ['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes'].includes(raw.toLowerCase())) {
    throw new ConfigError(
      'TRUST_PROXY=true would let any client pick its own address with X-Forwarded-For: set the number of proxies ' +
        'in front of the server (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=10.0.0.5,10.0.1.0/24)',
    );
  }
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if ((NAMED_PROXY_RANGES as readonly string[]).includes(entry)) continue;
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 6 ? 128 : 32;
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= bits);
    if (!family || extra !== undefined || !prefixOk) {
      throw new ConfigError(
        `TRUST_PROXY must be a number of proxies or a comma-separated list of proxy addresses, ranges (CIDR) or ` +
          `${NAMED_PROXY_RANGES.join(', ')}; "${entry}" is none of these`,
      );
    }
  }
  return entries.length ? entries : false;
}

function seconds(env: Env, key: string, fallback: number): number {
  const raw = str(env, key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${key} must be a positive number of seconds, got "${raw}"`);
  return n;
}

function positiveInt(env: Env, key: string, fallback: number): number {
  const raw = str(env, key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`${key} must be a positive integer, got "${raw}"`);
  return n;
}

function metricsConfig(env: Env): MetricsConfig {
  const token = str(env, 'METRICS_TOKEN');
  if (token !== undefined && (token.length < 16 || /\s/.test(token))) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  const rawPort = str(env, 'METRICS_PORT');
  let metricsPort: number | undefined;
  if (rawPort !== undefined) {
    metricsPort = Number(rawPort);
    if (!Number.isInteger(metricsPort) || metricsPort < 0 || metricsPort > 65535) {
      throw new ConfigError(`METRICS_PORT must be an integer between 0 and 65535, got "${rawPort}"`);
    }
  }
  return { token, port: metricsPort, host: str(env, 'METRICS_HOST') ?? '127.0.0.1' };
}

/** ADMINS: comma-separated e-mails; anything that is not one is refused at start, naming it. */
function admins(env: Env): string[] {
  const entries = (str(env, 'ADMINS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    const [local, domain, extra] = entry.split('@');
    if (!local || !domain?.includes('.') || extra !== undefined || /\s/.test(entry)) {
      throw new ConfigError(`ADMINS must be a comma-separated list of e-mail addresses; "${entry}" is not one`);
    }
  }
  return [...new Set(entries)];
}

/**
 * UNIVERSITIES_FILE (a JSON file, checked in full: a problem stops the server naming the entry and field), else the
 * spec's three; then CANVAS_URL_<KEY> (the key upper-cased) replaces a university's Canvas address, e.g. the emulator.
 */
function universities(env: Env, cwd: string): University[] {
  const file = str(env, 'UNIVERSITIES_FILE');
  let list: University[];
  try {
    list = file
      ? readUniversitiesFile(file, cwd, str(env, 'NODE_ENV') === 'production')
      : DEFAULT_UNIVERSITIES.map((u) => ({ ...u }));
  } catch (err) {
    if (err instanceof UniversitiesFileError) throw new ConfigError(err.message);
    throw err;
  }
  return list.map((u) => {
    const canvas = url(env, `CANVAS_URL_${u.key.toUpperCase()}`);
    return canvas ? { ...u, lms: { kind: 'canvas' as const, url: canvas } } : u;
  });
}

/** BACKUP_SCHEDULE is checked at start (a mistyped schedule would otherwise mean no backups, silently). */
function backupConfig(env: Env): BackupConfig {
  const schedule = str(env, 'BACKUP_SCHEDULE');
  if (schedule !== undefined) {
    try {
      new Cron(schedule, { paused: true, mode: '5-or-6-parts' });
    } catch (err) {
      throw new ConfigError(
        `BACKUP_SCHEDULE must be a cron expression such as "0 3 * * *" (every day at 03:00), got "${schedule}": ` +
          (err as Error).message.replace(/^CronPattern: /, ''),
      );
    }
  }
  return { schedule, keep: positiveInt(env, 'BACKUP_KEEP', 14) };
}

export function loadLimits(env: Env = {}): Limits {
  return {
    imageMaxPixels: positiveInt(env, 'IMAGE_MAX_PIXELS', 40_000_000),
    documentMaxPages: positiveInt(env, 'DOCUMENT_MAX_PAGES', 500),
    workerMemoryMb: positiveInt(env, 'WORKER_MEMORY_MB', 1024),
    nlpBudgetMs: positiveInt(env, 'NLP_BUDGET_MS', 20_000),
    storageBytes: positiveInt(env, 'QUOTA_STORAGE_MB', 1024) * 1024 * 1024,
    documentsPerDay: positiveInt(env, 'QUOTA_DOCUMENTS_PER_DAY', 100),
    uploadsPerDay: positiveInt(env, 'QUOTA_UPLOADS_PER_DAY', 200),
    openUploads: positiveInt(env, 'QUOTA_OPEN_UPLOADS', 5),
    documentSliceMs: positiveInt(env, 'DOCUMENT_SLICE_SECONDS', 5) * 1000,
    socketsPerStudent: positiveInt(env, 'QUOTA_SOCKETS', 20),
    friendRequestsPerDay: positiveInt(env, 'QUOTA_FRIEND_REQUESTS_PER_DAY', 100),
    feedbackPerHour: positiveInt(env, 'QUOTA_FEEDBACK_PER_HOUR', 20),
    requestsPerClient: positiveInt(env, 'REQUESTS_IN_FLIGHT_PER_CLIENT', 8),
    requestsPerIp: positiveInt(env, 'REQUESTS_IN_FLIGHT_PER_IP', 64),
    pushDevices: positiveInt(env, 'QUOTA_PUSH_DEVICES', 10),
    reportsPerDay: positiveInt(env, 'QUOTA_REPORTS_PER_DAY', 20),
  };
}

function requireAll<T extends string>(env: Env, keys: readonly T[], group: string): Record<T, string> | undefined {
  const present = keys.filter((k) => str(env, k));
  if (present.length === 0) return undefined;
  const missing = keys.filter((k) => !str(env, k));
  if (missing.length) throw new ConfigError(`${group} needs ${missing.join(', ')} as well`);
  return Object.fromEntries(keys.map((k) => [k, str(env, k)!])) as Record<T, string>;
}

/** A secret kept in DATA_DIR so restarts decrypt what earlier runs encrypted. */
function secretKey(env: Env, dataDir: string): string {
  const given = str(env, 'SECRET_KEY');
  if (given) {
    if (given.length < 32) throw new ConfigError('SECRET_KEY must be at least 32 characters');
    return given;
  }
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

const DEFAULT_PUSH_SERVICES = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
];

/** The VAPID key pair, from the settings or kept in DATA_DIR so subscriptions outlive restarts. */
function vapidKeys(env: Env, dataDir: string): { publicKey: string; privateKey: string } {
  const given = requireAll(env, ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY'] as const, 'Web Push');
  if (given) {
    const publicKey = Buffer.from(given.VAPID_PUBLIC_KEY, 'base64url');
    const privateKey = Buffer.from(given.VAPID_PRIVATE_KEY, 'base64url');
    if (publicKey.length !== 65 || publicKey[0] !== 4 || privateKey.length !== 32) {
      throw new ConfigError('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a base64url P-256 key pair');
    }
    return { publicKey: given.VAPID_PUBLIC_KEY, privateKey: given.VAPID_PRIVATE_KEY };
  }
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  mkdirSync(dataDir, { recursive: true });
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = { publicKey: ecdh.getPublicKey('base64url'), privateKey: ecdh.getPrivateKey().toString('base64url') };
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

function pushConfig(env: Env, dataDir: string, mailFrom: string): PushConfig {
  const subject = str(env, 'VAPID_SUBJECT') ?? `mailto:${/<([^<>]+)>/.exec(mailFrom)?.[1] ?? mailFrom}`;
  if (!/^(mailto:|https:\/\/)/.test(subject)) throw new ConfigError('VAPID_SUBJECT must be a mailto: or https: URL');
  const hosts = str(env, 'PUSH_SERVICE_HOSTS');
  return {
    ...vapidKeys(env, dataDir),
    subject,
    serviceHosts: hosts
      ? hosts
          .split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean)
      : DEFAULT_PUSH_SERVICES,
    caFile: str(env, 'PUSH_CA_FILE'),
  };
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const p = port(env);
  const dataDir = path.resolve(cwd, str(env, 'DATA_DIR') ?? 'data');
  const storage = str(env, 'STORAGE') ?? 'fs';
  if (storage !== 'fs' && storage !== 's3') throw new ConfigError(`STORAGE must be "fs" or "s3", got "${storage}"`);
  const s3 = requireAll(env, ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const, 'S3 storage');
  if (storage === 's3' && !s3)
    throw new ConfigError('STORAGE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  const oidc = requireAll(env, ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const, 'Social sign-in');
  const google = requireAll(env, ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'] as const, 'Google Calendar');
  const llmBase = url(env, 'LLM_BASE_URL');
  const mailFrom = str(env, 'MAIL_FROM') ?? 'StudyBuddy <no-reply@studybuddy.local>';
  return {
    port: p,
    host: str(env, 'HOST') ?? '0.0.0.0',
    dataDir,
    publicUrl: url(env, 'PUBLIC_URL') ?? `http://localhost:${p}`,
    databaseUrl: url(env, 'DATABASE_URL'),
    smtpUrl: url(env, 'SMTP_URL'),
    mailFrom,
    storage,
    s3: s3 && {
      endpoint: url(env, 'S3_ENDPOINT'),
      bucket: s3.S3_BUCKET,
      accessKeyId: s3.S3_ACCESS_KEY_ID,
      secretAccessKey: s3.S3_SECRET_ACCESS_KEY,
      region: str(env, 'S3_REGION') ?? 'us-east-1',
    },
    oidc: oidc && {
      issuer: url(env, 'OIDC_ISSUER')!,
      clientId: oidc.OIDC_CLIENT_ID,
      clientSecret: oidc.OIDC_CLIENT_SECRET,
      name: str(env, 'OIDC_NAME') ?? 'Google',
    },
    universities: universities(env, cwd),
    universitiesFile: str(env, 'UNIVERSITIES_FILE'),
    google: google && {
      clientId: google.GOOGLE_CLIENT_ID,
      clientSecret: google.GOOGLE_CLIENT_SECRET,
      authUrl: url(env, 'GOOGLE_AUTH_URL', 'https://accounts.google.com/o/oauth2/v2/auth')!,
      tokenUrl: url(env, 'GOOGLE_TOKEN_URL', 'https://oauth2.googleapis.com/token')!,
      revokeUrl: url(env, 'GOOGLE_REVOKE_URL', 'https://oauth2.googleapis.com/revoke')!,
      apiUrl: url(env, 'GOOGLE_CALENDAR_API_URL', 'https://www.googleapis.com/calendar/v3')!,
    },
    llm: llmBase
      ? { baseUrl: llmBase, apiKey: str(env, 'LLM_API_KEY'), model: str(env, 'LLM_MODEL') ?? 'gpt-4o-mini' }
      : undefined,
    secretKey: secretKey(env, dataDir),
    push: pushConfig(env, dataDir, mailFrom),
    webDist: str(env, 'WEB_DIST'),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    rateLimits: bool(env, 'RATE_LIMITS', true),
    rateLimitWindowMs: seconds(env, 'RATE_LIMIT_WINDOW', 60) * 1000,
    trustProxy: trustProxy(env),
    metrics: metricsConfig(env),
    demo: bool(env, 'DEMO', false),
    admins: admins(env),
    limits: loadLimits(env),
    backup: backupConfig(env),
    connections: loadConnectionLimits(env, (message) => new ConfigError(message)),
  };
}
