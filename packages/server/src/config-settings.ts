import { isIP } from 'node:net';
import { Cron } from 'croner';
import { z } from 'zod';
import {
  addIssue,
  doc,
  flag,
  list,
  oneOf,
  optionalText,
  portNumber,
  positiveInt,
  seconds,
  text,
  url,
} from './config-fields.ts';
import { connectionConflict, connectionSettings } from './connection-config.ts';

/**
 * Every environment variable the server reads, as one zod schema: how each is parsed and checked, its default, and
 * how the README's configuration table shows it (`npm run config:docs` writes the table from here; config-docs.test.ts
 * fails when the two differ). config.ts turns the parsed settings into the typed `Config`.
 */

/** Address ranges Fastify (proxy-addr) knows by name. */
export const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** Fastify's `trustProxy`, minus `true` (any peer, so any client, could name its own address). */
export type TrustProxy = false | number | string[];

export const DEFAULT_PUSH_SERVICES = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  'notify.windows.com',
  'push.apple.com',
];

const code = (v: string | number) => `\`${v}\``;

/** A whole number above zero, `fallback` when unset, shown in the README table with that default. */
const wholeNumber = (fallback: number, meaning: string) =>
  doc(positiveInt(fallback), { default: code(fallback), meaning });

/** `1` (hops), `10.0.0.5,10.1.0.0/16` (addresses, CIDR ranges, named ranges), or false; never `true`. */
const trustProxy = optionalText.transform((v, ctx): TrustProxy => {
  if (v === undefined || ['0', 'false', 'no'].includes(v.toLowerCase())) return false;
  if (['true', 'yes'].includes(v.toLowerCase())) {
    return addIssue(
      ctx,
      'TRUST_PROXY=true would let any client pick its own address with X-Forwarded-For: set the number of proxies ' +
        'in front of the server (e.g. TRUST_PROXY=1) or their addresses (e.g. TRUST_PROXY=10.0.0.5,10.0.1.0/24)',
    );
  }
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v
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
      return addIssue(
        ctx,
        `must be a number of proxies or a comma-separated list of proxy addresses, ranges (CIDR) or ` +
          `${NAMED_PROXY_RANGES.join(', ')}; "${entry}" is none of these`,
      );
    }
  }
  return entries.length ? entries : false;
});

/** ADMINS: comma-separated e-mails; anything that is not one is refused at start, naming it. */
const admins = list({ lower: true }).transform((entries, ctx) => {
  for (const entry of entries) {
    const [local, domain, extra] = entry.split('@');
    if (!local || !domain?.includes('.') || extra !== undefined || /\s/.test(entry)) {
      return addIssue(ctx, `must be a comma-separated list of e-mail addresses; "${entry}" is not one`);
    }
  }
  return [...new Set(entries)];
});

/** Checked at start: a mistyped schedule would otherwise mean no backups, silently. */
const backupSchedule = optionalText.transform((schedule, ctx) => {
  if (schedule === undefined) return undefined;
  try {
    new Cron(schedule, { paused: true, mode: '5-or-6-parts' });
  } catch (err) {
    return addIssue(
      ctx,
      `must be a cron expression such as "0 3 * * *" (every day at 03:00), got "${schedule}": ` +
        (err as Error).message.replace(/^CronPattern: /, ''),
    );
  }
  return schedule;
});

const metricsToken = optionalText.refine((t) => t === undefined || (t.length >= 16 && !/\s/.test(t)), {
  message: 'must be at least 16 characters without spaces',
});
const secretKey = optionalText.refine((k) => k === undefined || k.length >= 32, {
  message: 'must be at least 32 characters',
});
const vapidSubject = optionalText.refine((s) => s === undefined || /^(mailto:|https:\/\/)/.test(s), {
  message: 'must be a mailto: or https: URL',
});

/** The variables, in the order of the README's table. */
export const settingsShape = {
  PORT: doc(portNumber(3000), { default: code(3000), meaning: 'HTTP port' }),
  HOST: doc(text('0.0.0.0'), { default: code('0.0.0.0'), meaning: 'interface to listen on' }),
  DATA_DIR: doc(text('./data'), {
    default: code('./data'),
    meaning: 'embedded database (`db/`), files (`files/`), outbox (`outbox/`), generated secret',
  }),
  DISK_MIN_FREE_MB: wholeNumber(
    64,
    'room kept free on the `DATA_DIR` file system: below it, writes are refused with 507 `disk_full` before ' +
      'anything is written, so the embedded database never meets a full disk halfway through its log (it adds 16 MB ' +
      'at a time); reads and deletions go on',
  ),
  PUBLIC_URL: doc(url(), {
    default: code('http://localhost:$PORT'),
    meaning: 'address used in e-mailed links and as the allowed origin',
  }),
  DATABASE_URL: doc(url(), {
    default: '— (PGlite in `DATA_DIR/db`)',
    meaning: 'PostgreSQL connection string; run several instances on one database',
  }),
  SMTP_URL: doc(url(), { default: '— (outbox folder)', meaning: 'e.g. `smtp://user:pass@mail.example.com:587`' }),
  MAIL_FROM: doc(text('StudyBuddy <no-reply@studybuddy.local>'), {
    default: code('StudyBuddy <no-reply@studybuddy.local>'),
    meaning: 'sender of e-mails',
  }),
  STORAGE: doc(oneOf(['fs', 's3'], 'fs'), {
    default: code('fs'),
    meaning: '`fs` (files under `DATA_DIR/files`) or `s3`',
  }),
  S3_ENDPOINT: doc(url(), {
    default: '—, —, —, —, `us-east-1`',
    meaning: 'S3-compatible storage when `STORAGE=s3`',
  }),
  S3_BUCKET: doc(text(), { row: 'S3_ENDPOINT' }),
  S3_ACCESS_KEY_ID: doc(text(), { row: 'S3_ENDPOINT' }),
  S3_SECRET_ACCESS_KEY: doc(text(), { row: 'S3_ENDPOINT' }),
  S3_REGION: doc(text('us-east-1'), { row: 'S3_ENDPOINT' }),
  S3_CONNECT_TIMEOUT: doc(seconds(2), {
    default: '`2`, `5`, `2`',
    meaning:
      "how long the S3 store may take: a connection must open within `S3_CONNECT_TIMEOUT` seconds, an answer's next " +
      'bytes come within `S3_IDLE_TIMEOUT`, and a failed request (a 5xx, a reset, a timeout) is tried ' +
      '`S3_ATTEMPTS` times in all; then the request is refused with 503 `storage_unavailable` (see ' +
      '[Timeouts and connection caps](#timeouts-and-connection-caps))',
  }),
  S3_IDLE_TIMEOUT: doc(seconds(5), { row: 'S3_CONNECT_TIMEOUT' }),
  S3_ATTEMPTS: doc(positiveInt(2), { row: 'S3_CONNECT_TIMEOUT' }),
  OIDC_ISSUER: doc(url(), {
    default: '— (button hidden), `Google`',
    meaning: 'social sign-in through any OpenID Connect provider',
  }),
  OIDC_CLIENT_ID: doc(text(), { row: 'OIDC_ISSUER' }),
  OIDC_CLIENT_SECRET: doc(text(), { row: 'OIDC_ISSUER' }),
  OIDC_NAME: doc(text('Google'), { row: 'OIDC_ISSUER' }),
  UNIVERSITIES_FILE: doc(text(), {
    default: "— (the spec's three: UCLA, Carnegie Mellon, University of Wisconsin-Madison)",
    meaning:
      'JSON file of the universities whose students use the server: e-mail domains, college name, Canvas address, ' +
      'open for sign-up or not (see [Universities](#universities)); checked in full at start',
    then: {
      name: 'CANVAS_URL_<KEY>',
      default: "the university's `lms.url`",
      meaning:
        'replaces the Canvas address of the university with that key (upper-cased: `CANVAS_URL_UCLA`, ' +
        '`CANVAS_URL_OXF`), e.g. the Canvas emulator',
    },
  }),
  GOOGLE_CLIENT_ID: doc(text(), {
    default: '— (button hidden; .ics still works)',
    meaning: 'Google Calendar export; register `PUBLIC_URL/api/calendar/google/callback` as the OAuth redirect URI',
  }),
  GOOGLE_CLIENT_SECRET: doc(text(), { row: 'GOOGLE_CLIENT_ID' }),
  GOOGLE_AUTH_URL: doc(url('https://accounts.google.com/o/oauth2/v2/auth'), {
    default: "Google's",
    meaning: 'endpoints (tests point them at an emulator); the revoke URL is called on disconnect and account deletion',
  }),
  GOOGLE_TOKEN_URL: doc(url('https://oauth2.googleapis.com/token'), { row: 'GOOGLE_AUTH_URL' }),
  GOOGLE_REVOKE_URL: doc(url('https://oauth2.googleapis.com/revoke'), { row: 'GOOGLE_AUTH_URL' }),
  GOOGLE_CALENDAR_API_URL: doc(url('https://www.googleapis.com/calendar/v3'), { row: 'GOOGLE_AUTH_URL' }),
  LLM_BASE_URL: doc(url(), {
    default: '— (offline engine), —, `gpt-4o-mini`',
    meaning: 'OpenAI-compatible endpoint for summaries and answers',
  }),
  LLM_API_KEY: doc(text(), { row: 'LLM_BASE_URL' }),
  LLM_MODEL: doc(text('gpt-4o-mini'), { row: 'LLM_BASE_URL' }),
  SECRET_KEY: doc(secretKey, {
    default: 'generated into `DATA_DIR/secret.key`',
    meaning: 'encrypts Canvas and Google tokens and calendar feed secrets at rest (≥ 32 characters)',
  }),
  VAPID_PUBLIC_KEY: doc(text(), {
    default: 'generated into `DATA_DIR/vapid.json`',
    meaning:
      'the Web Push key pair (base64url P-256, e.g. from `npx web-push generate-vapid-keys`); set both, the same on ' +
      "every instance, or browsers' subscriptions stop working",
  }),
  VAPID_PRIVATE_KEY: doc(text(), { row: 'VAPID_PUBLIC_KEY' }),
  VAPID_SUBJECT: doc(vapidSubject, {
    default: "`mailto:` + `MAIL_FROM`'s address",
    meaning: 'contact the push services may use (`mailto:` or `https:`)',
  }),
  PUSH_SERVICE_HOSTS: doc(list({ lower: true, fallback: DEFAULT_PUSH_SERVICES }), {
    default: code(DEFAULT_PUSH_SERVICES.join(',')),
    meaning:
      "hosts (and their subdomains) a push subscription's HTTPS endpoint may name; the server posts notices there " +
      'and refuses any other address',
  }),
  PUSH_CA_FILE: doc(text(), {
    default: '—',
    meaning: "an extra CA certificate (PEM) to trust for push services (a private push service; the tests' own)",
  }),
  WEB_DIST: doc(text(), {
    default: '`packages/web/dist` (set by `npm start`)',
    meaning: 'built web app to serve',
  }),
  LOG_LEVEL: doc(text('info'), { default: code('info'), meaning: 'pino log level' }),
  NODE_ENV: doc(text(), {
    default: '—',
    meaning: "`production`: outbox log lines leave out the mail's links",
  }),
  DEMO: doc(flag(false), {
    default: '`false` (`true` with `npm run demo`)',
    meaning: 'seed demo students and their data into an empty database at start',
  }),
  RATE_LIMITS: doc(flag(true), {
    default: code('true'),
    meaning: 'per-IP and per-e-mail limits on sign-up, log-in, resend and reset',
  }),
  RATE_LIMIT_WINDOW: doc(seconds(60), {
    default: code(60),
    meaning:
      'length in seconds of the window those limits count in (e.g. 10 failed log-ins per e-mail; 20 reset ' +
      'confirmations per IP). Log-in guessing also locks longer after each burst (one more window, three, seven, … ' +
      'up to a day) and stops at 100 failures per account and 1000 per IP a day; a browser that signed in to the ' +
      "account before (signed `sb_device` cookie) is held back only by its own counter, so others' guessing cannot " +
      'lock its student out',
  }),
  TRUST_PROXY: doc(trustProxy, {
    default: code('false'),
    meaning:
      'behind a reverse proxy: how many proxies stand in front of the server (`1`), or their addresses and ranges ' +
      '(`10.0.0.5,10.0.1.0/24`; also `loopback`, `linklocal`, `uniquelocal`). Only those may say who the client is ' +
      '(`X-Forwarded-For`, `-Proto`, `-Host`) and pass their `X-Request-Id` (letters, digits, `._:-`, up to 128). ' +
      '`true` (any peer) is refused at start: it would let clients pick their own address',
  }),
  METRICS_TOKEN: doc(metricsToken, {
    default: '—',
    meaning:
      'serve `/metrics` on the main port to `Authorization: Bearer <token>` only (≥ 16 characters; also asked on ' +
      '`METRICS_PORT` when both are set)',
  }),
  METRICS_PORT: doc(portNumber(), {
    default: '—',
    meaning:
      'serve `/metrics` on a listener of its own on this port (and nothing else there); without this or ' +
      '`METRICS_TOKEN`, `/metrics` answers 404',
  }),
  METRICS_HOST: doc(text('127.0.0.1'), {
    default: code('127.0.0.1'),
    meaning:
      'interface of the `METRICS_PORT` listener (e.g. a private network address for a Prometheus on another machine)',
  }),
  NLP_BUDGET_MS: wholeNumber(
    20_000,
    'longest a summary of sent text or an answer may work (on its own worker thread, waiting included) before the ' +
      'request is refused with 422 `text_too_slow`',
  ),
  QUOTA_STORAGE_MB: wholeNumber(
    1024,
    'storage a student may keep: course documents, chat images and voice messages, profile images (a resumable ' +
      'upload counts its declared length from the start)',
  ),
  QUOTA_DOCUMENTS_PER_DAY: wholeNumber(
    100,
    'course documents a student may add per day (uploads and first-opened Canvas files)',
  ),
  QUOTA_UPLOADS_PER_DAY: wholeNumber(200, 'resumable (tus) uploads a student may start per day'),
  QUOTA_SOCKETS: wholeNumber(
    20,
    'WebSocket connections a student may hold open at once, counted on all server instances together; the one ' +
      'over it is closed with code 4429 and a reason naming the limit (the web app then waits its longest back-off ' +
      'and polls)',
  ),
  QUOTA_FRIEND_REQUESTS_PER_DAY: wholeNumber(
    100,
    'friend requests a student may send per day (refused ones do not count)',
  ),
  QUOTA_FEEDBACK_PER_HOUR: wholeNumber(20, 'feedback messages per client IP per hour (feedback needs no log-in)'),
  QUOTA_REPORTS_PER_DAY: wholeNumber(
    20,
    'reports a student may send per day (reporting the same student or message again is the same report and ' +
      'does not count)',
  ),
  ADMINS: doc(admins, {
    default: '—',
    meaning:
      'comma-separated e-mails of the accounts that are admins (the moderation area at `/admin`); ' +
      '`npm run admin -- grant <email>` / `revoke <email>` grants others without a restart (see Moderation)',
  }),
  BACKUP_SCHEDULE: doc(backupSchedule, {
    default: '— (no scheduled backups)',
    meaning:
      "when the server writes a backup, as a cron expression in the server's time zone (`TZ`): five fields " +
      '(`0 3 * * *`: every day at 03:00) or six with seconds first; checked at start. See ' +
      '[Scheduled backups](#scheduled-backups)',
  }),
  BACKUP_KEEP: wholeNumber(
    14,
    'how many scheduled backups are kept: after each one, the oldest beyond this number are removed (backups ' +
      'made with `npm run backup -- --out` are never touched)',
  ),
  REQUESTS_IN_FLIGHT_PER_CLIENT: wholeNumber(
    8,
    'API requests one session (or one IP without a session) may have in work at once; more wait their turn (up ' +
      "to 1,000, then 429), so a script's burst is served a few at a time, in turn with everyone else's. A browser " +
      'never needs more than about 6',
  ),
  REQUESTS_IN_FLIGHT_PER_IP: wholeNumber(
    64,
    'API requests in work at once from one IP, all its sessions together; raise it when a whole campus reaches ' +
      'the server through one NAT address',
  ),
  ...connectionSettings,
  QUOTA_PUSH_DEVICES: wholeNumber(
    10,
    'browsers a student may have push notifications on at once (each belongs to the session that turned it on ' +
      'and goes with it at log-out)',
  ),
  QUOTA_OPEN_UPLOADS: wholeNumber(
    5,
    'unfinished resumable uploads a student may have at once (unfinished ones are removed after 24 h)',
  ),
  DOCUMENT_SLICE_SECONDS: wholeNumber(
    5,
    "longest turn of one document's processing while another student's document waits (the job queue takes " +
      'turns between students; a turn ends after the page in progress, on the same warm worker)',
  ),
  IMAGE_MAX_PIXELS: wholeNumber(
    40_000_000,
    'largest image decoded, checked from its header before decoding: profile and chat images (refused with 422 ' +
      '`image_too_large`), OCR of images, images inside PDFs, PDF pages rendered for OCR',
  ),
  DOCUMENT_MAX_PAGES: wholeNumber(
    500,
    "pages a PDF may have; a longer one fails as unreadable ('The document has more than 500 pages.')",
  ),
  WORKER_MEMORY_MB: wholeNumber(
    1024,
    'V8 heap of each document worker thread; a file that needs more ends only that thread and fails as ' +
      'unreadable. DOCX/PPTX/XLSX are also capped before parsing (10,000 entries, 64 MB per entry, 256 MB in all, ' +
      "ratio 200:1 above 1 MB) and so are a PDF's Flate streams (64 MB each)",
  ),
};

export type Settings = z.output<z.ZodObject<typeof settingsShape>>;

/** Variables that only make sense together: setting one of a group asks for the rest. */
const GROUPS: [string, (keyof Settings)[]][] = [
  ['S3 storage', ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']],
  ['Social sign-in', ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']],
  ['Google Calendar', ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET']],
  ['Web Push', ['VAPID_PUBLIC_KEY', 'VAPID_PRIVATE_KEY']],
];

function isKeyPair(publicKey: string, privateKey: string) {
  const pub = Buffer.from(publicKey, 'base64url');
  return pub.length === 65 && pub[0] === 4 && Buffer.from(privateKey, 'base64url').length === 32;
}

/** The one schema: each variable, then the rules between them. */
export const settingsSchema = z.object(settingsShape).superRefine((s, ctx) => {
  for (const [group, keys] of GROUPS) {
    const present = keys.filter((k) => s[k] !== undefined);
    const missing = keys.filter((k) => s[k] === undefined);
    if (present.length && missing.length) addIssue(ctx, `${group} needs ${missing.join(', ')} as well`);
  }
  if (s.STORAGE === 's3' && s.S3_BUCKET === undefined) {
    addIssue(ctx, 'STORAGE=s3 needs S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
  }
  if (s.VAPID_PUBLIC_KEY && s.VAPID_PRIVATE_KEY && !isKeyPair(s.VAPID_PUBLIC_KEY, s.VAPID_PRIVATE_KEY)) {
    addIssue(ctx, 'VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a base64url P-256 key pair');
  }
  const conflict = connectionConflict(s);
  if (conflict) addIssue(ctx, conflict);
});

/** One setting's own schema (for variables named at run time, `CANVAS_URL_<KEY>`), checked the same way. */
export const canvasUrlSetting = url();
