import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_UNIVERSITIES,
  readUniversitiesFile,
  UniversitiesFileError,
  type University,
} from './universities-config.ts';
import { connectionLimits, type ConnectionLimits } from './connection-config.ts';
import { parseSettings } from './config-fields.ts';
import {
  canvasUrlSetting,
  NAMED_PROXY_RANGES,
  settingsSchema,
  type Settings,
  type TrustProxy,
} from './config-settings.ts';

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
  /** S3_CONNECT_TIMEOUT, S3_IDLE_TIMEOUT, S3_ATTEMPTS; without them (a test's own store) s3-storage's defaults. */
  timeouts?: S3Timeouts;
}

/** How long the S3 store may take (issue 31), in milliseconds. */
export interface S3Timeouts {
  connectMs: number;
  idleMs: number;
  attempts: number;
  /** A bounded operation (not a file's bytes streaming up) is cut at this in all: each attempt's idle time and 1 s. */
  totalMs: number;
}

export const s3Timeouts = (connectMs: number, idleMs: number, attempts: number): S3Timeouts => ({
  connectMs,
  idleMs,
  attempts,
  totalMs: attempts * idleMs + 1000,
});

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
  /** DISK_MIN_FREE_MB: room kept free on DATA_DIR; below it writes are refused (platform/disk-guard.ts). */
  diskMinFreeBytes: number;
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

export { NAMED_PROXY_RANGES, type TrustProxy };

type Env = Record<string, string | undefined>;

const parse = (env: Env): Settings => parseSettings(settingsSchema, env, (m) => new ConfigError(m));

/**
 * UNIVERSITIES_FILE (a JSON file, checked in full: a problem stops the server naming the entry and field), else the
 * spec's three; then CANVAS_URL_<KEY> (the key upper-cased) replaces a university's Canvas address, e.g. the emulator.
 */
function universities(env: Env, s: Settings, cwd: string): University[] {
  let list: University[];
  try {
    list = s.UNIVERSITIES_FILE
      ? readUniversitiesFile(s.UNIVERSITIES_FILE, cwd, s.NODE_ENV === 'production')
      : DEFAULT_UNIVERSITIES.map((u) => ({ ...u }));
  } catch (err) {
    if (err instanceof UniversitiesFileError) throw new ConfigError(err.message);
    throw err;
  }
  return list.map((u) => {
    const key = `CANVAS_URL_${u.key.toUpperCase()}`;
    const canvas = parseSettings(z.object({ [key]: canvasUrlSetting }), env, (m) => new ConfigError(m))[key];
    return canvas ? { ...u, lms: { kind: 'canvas' as const, url: canvas } } : u;
  });
}

function limits(s: Settings): Limits {
  return {
    imageMaxPixels: s.IMAGE_MAX_PIXELS,
    documentMaxPages: s.DOCUMENT_MAX_PAGES,
    workerMemoryMb: s.WORKER_MEMORY_MB,
    nlpBudgetMs: s.NLP_BUDGET_MS,
    storageBytes: s.QUOTA_STORAGE_MB * 1024 * 1024,
    documentsPerDay: s.QUOTA_DOCUMENTS_PER_DAY,
    uploadsPerDay: s.QUOTA_UPLOADS_PER_DAY,
    openUploads: s.QUOTA_OPEN_UPLOADS,
    documentSliceMs: s.DOCUMENT_SLICE_SECONDS * 1000,
    socketsPerStudent: s.QUOTA_SOCKETS,
    friendRequestsPerDay: s.QUOTA_FRIEND_REQUESTS_PER_DAY,
    feedbackPerHour: s.QUOTA_FEEDBACK_PER_HOUR,
    requestsPerClient: s.REQUESTS_IN_FLIGHT_PER_CLIENT,
    requestsPerIp: s.REQUESTS_IN_FLIGHT_PER_IP,
    pushDevices: s.QUOTA_PUSH_DEVICES,
    reportsPerDay: s.QUOTA_REPORTS_PER_DAY,
  };
}

export function loadLimits(env: Env = {}): Limits {
  return limits(parse(env));
}

/** A secret kept in DATA_DIR so restarts decrypt what earlier runs encrypted. */
function secretKey(given: string | undefined, dataDir: string): string {
  if (given) return given;
  const file = path.join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32).toString('base64url');
  writeFileSync(file, key, { mode: 0o600 });
  return key;
}

/** The VAPID key pair, from the settings or kept in DATA_DIR so subscriptions outlive restarts. */
function vapidKeys(s: Settings, dataDir: string): { publicKey: string; privateKey: string } {
  if (s.VAPID_PUBLIC_KEY && s.VAPID_PRIVATE_KEY) {
    return { publicKey: s.VAPID_PUBLIC_KEY, privateKey: s.VAPID_PRIVATE_KEY };
  }
  const file = path.join(dataDir, 'vapid.json');
  if (existsSync(file)) {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
    // Kept before the private key was padded (about one install in 256): the same key, 32 bytes long.
    return { publicKey: kept.publicKey, privateKey: padPrivateKey(Buffer.from(kept.privateKey, 'base64url')) };
  }
  mkdirSync(dataDir, { recursive: true });
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = vapidPair(ecdh);
  writeFileSync(file, JSON.stringify(keys), { mode: 0o600 });
  return keys;
}

const padPrivateKey = (d: Buffer) => Buffer.concat([Buffer.alloc(Math.max(0, 32 - d.length)), d]).toString('base64url');

/**
 * A P-256 key pair as Web Push takes it: the public key's 65-byte point and a 32-byte private key. Node gives the
 * private key without its leading zero bytes (31 bytes about one time in 256), which Web Push refuses.
 */
export function vapidPair(ecdh: ECDH): { publicKey: string; privateKey: string } {
  return { publicKey: ecdh.getPublicKey('base64url'), privateKey: padPrivateKey(ecdh.getPrivateKey()) };
}

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const s = parse(env);
  const dataDir = path.resolve(cwd, s.DATA_DIR);
  const { S3_BUCKET: bucket, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = s;
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret } = s;
  const { GOOGLE_CLIENT_ID: googleId, GOOGLE_CLIENT_SECRET: googleSecret } = s;
  return {
    port: s.PORT,
    host: s.HOST,
    dataDir,
    diskMinFreeBytes: s.DISK_MIN_FREE_MB * 1024 * 1024,
    publicUrl: s.PUBLIC_URL ?? `http://localhost:${s.PORT}`,
    databaseUrl: s.DATABASE_URL,
    smtpUrl: s.SMTP_URL,
    mailFrom: s.MAIL_FROM,
    storage: s.STORAGE,
    s3:
      bucket && accessKeyId && secretAccessKey
        ? {
            endpoint: s.S3_ENDPOINT,
            bucket,
            accessKeyId,
            secretAccessKey,
            region: s.S3_REGION,
            timeouts: s3Timeouts(s.S3_CONNECT_TIMEOUT * 1000, s.S3_IDLE_TIMEOUT * 1000, s.S3_ATTEMPTS),
          }
        : undefined,
    oidc: issuer && clientId && clientSecret ? { issuer, clientId, clientSecret, name: s.OIDC_NAME } : undefined,
    universities: universities(env, s, cwd),
    universitiesFile: s.UNIVERSITIES_FILE,
    google:
      googleId && googleSecret
        ? {
            clientId: googleId,
            clientSecret: googleSecret,
            authUrl: s.GOOGLE_AUTH_URL,
            tokenUrl: s.GOOGLE_TOKEN_URL,
            revokeUrl: s.GOOGLE_REVOKE_URL,
            apiUrl: s.GOOGLE_CALENDAR_API_URL,
          }
        : undefined,
    llm: s.LLM_BASE_URL ? { baseUrl: s.LLM_BASE_URL, apiKey: s.LLM_API_KEY, model: s.LLM_MODEL } : undefined,
    secretKey: secretKey(s.SECRET_KEY, dataDir),
    push: {
      ...vapidKeys(s, dataDir),
      subject: s.VAPID_SUBJECT ?? `mailto:${/<([^<>]+)>/.exec(s.MAIL_FROM)?.[1] ?? s.MAIL_FROM}`,
      serviceHosts: s.PUSH_SERVICE_HOSTS,
      caFile: s.PUSH_CA_FILE,
    },
    webDist: s.WEB_DIST,
    logLevel: s.LOG_LEVEL,
    rateLimits: s.RATE_LIMITS,
    rateLimitWindowMs: s.RATE_LIMIT_WINDOW * 1000,
    trustProxy: s.TRUST_PROXY,
    metrics: { token: s.METRICS_TOKEN, port: s.METRICS_PORT, host: s.METRICS_HOST },
    demo: s.DEMO,
    admins: s.ADMINS,
    limits: limits(s),
    backup: { schedule: s.BACKUP_SCHEDULE, keep: s.BACKUP_KEEP },
    connections: connectionLimits(s),
  };
}
