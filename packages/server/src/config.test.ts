import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { DISK_MIN_FREE_BYTES } from './platform/disk-guard.ts';
import { S3_TIMEOUTS } from './platform/storage/s3-storage.ts';

const dir = () => mkdtempSync(path.join(tmpdir(), 'sb-config-'));

describe('loadConfig', () => {
  it('uses the embedded defaults', () => {
    const cwd = dir();
    const c = loadConfig({}, cwd);
    expect(c).toMatchObject({
      port: 3000,
      dataDir: path.join(cwd, 'data'),
      storage: 'fs',
      publicUrl: 'http://localhost:3000',
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.secretKey.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}, cwd).secretKey).toBe(c.secretKey);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'not a url' }, /DATABASE_URL/],
    [{ STORAGE: 'ftp' }, /STORAGE/],
    [{ STORAGE: 's3' }, /S3_BUCKET/],
    [{ OIDC_ISSUER: 'https://id.example' }, /OIDC_CLIENT_ID/],
    [{ SECRET_KEY: 'short' }, /SECRET_KEY/],
    [{ TRUST_PROXY: 'true' }, /TRUST_PROXY=true would let any client pick its own address/],
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '1.5' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.5, proxy.example' }, /TRUST_PROXY.*"proxy\.example"/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /TRUST_PROXY/],
    [{ RATE_LIMITS: 'maybe' }, /^RATE_LIMITS must be true or false, got "maybe"$/],
    [{ RATE_LIMIT_WINDOW: '0' }, /^RATE_LIMIT_WINDOW must be a positive number of seconds, got "0"$/],
    [{ QUOTA_SOCKETS: '2.5' }, /^QUOTA_SOCKETS must be a positive integer, got "2.5"$/],
    [{ METRICS_TOKEN: 'short' }, /^METRICS_TOKEN must be at least 16 characters without spaces$/],
    [{ METRICS_PORT: '-1' }, /^METRICS_PORT must be an integer between 0 and 65535, got "-1"$/],
    [{ ADMINS: 'a@b.edu, nobody' }, /^ADMINS must be a comma-separated list of e-mail addresses; "nobody" is not one$/],
    [{ BACKUP_SCHEDULE: 'daily' }, /^BACKUP_SCHEDULE must be a cron expression such as "0 3 \* \* \*"/],
    [{ VAPID_PUBLIC_KEY: 'abc' }, /^Web Push needs VAPID_PRIVATE_KEY as well$/],
    [
      { VAPID_PUBLIC_KEY: 'abc', VAPID_PRIVATE_KEY: 'def' },
      /^VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a base64url/,
    ],
    [{ VAPID_SUBJECT: 'me@example.edu' }, /^VAPID_SUBJECT must be a mailto: or https: URL$/],
    [{ GOOGLE_CLIENT_ID: 'id' }, /^Google Calendar needs GOOGLE_CLIENT_SECRET as well$/],
    [{ S3_BUCKET: 'b' }, /^S3 storage needs S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY as well$/],
    [{ CANVAS_URL_UCLA: 'canvas' }, /^CANVAS_URL_UCLA must be a valid URL, got "canvas"$/],
    [{ S3_IDLE_TIMEOUT: '0' }, /^S3_IDLE_TIMEOUT must be a positive number of seconds, got "0"$/],
    [{ S3_ATTEMPTS: '1.5' }, /^S3_ATTEMPTS must be a positive integer, got "1.5"$/],
    [{ DISK_MIN_FREE_MB: 'lots' }, /^DISK_MIN_FREE_MB must be a positive integer, got "lots"$/],
  ])('fails fast on %j', (env, message) => {
    expect(() => loadConfig(env, dir())).toThrow(ConfigError);
    expect(() => loadConfig(env, dir())).toThrow(message);
  });

  it("takes the S3 store's timeouts and the room kept free on DATA_DIR from the settings (issue 31)", () => {
    const s3 = { STORAGE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    const defaults = loadConfig(s3, dir());
    // The defaults are the ones the drivers fall back on for a store configured without settings.
    expect(defaults.s3?.timeouts).toEqual(S3_TIMEOUTS);
    expect(defaults.diskMinFreeBytes).toBe(DISK_MIN_FREE_BYTES);
    const set = loadConfig(
      { ...s3, S3_CONNECT_TIMEOUT: '0.5', S3_IDLE_TIMEOUT: '30', S3_ATTEMPTS: '3', DISK_MIN_FREE_MB: '512' },
      dir(),
    );
    expect(set.s3?.timeouts).toEqual({ connectMs: 500, idleMs: 30_000, attempts: 3, totalMs: 91_000 });
    expect(set.diskMinFreeBytes).toBe(512 * 1024 * 1024);
  });

  it.each([
    [{}, false],
    [{ TRUST_PROXY: 'false' }, false],
    [{ TRUST_PROXY: '0' }, false],
    [{ TRUST_PROXY: '1' }, 1],
    [{ TRUST_PROXY: '2' }, 2],
    [{ TRUST_PROXY: '10.0.0.5' }, ['10.0.0.5']],
    [
      { TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,loopback ' },
      ['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback'],
    ],
  ])('reads TRUST_PROXY %j as a hop count or the proxies’ addresses', (env, trustProxy) => {
    expect(loadConfig(env, dir()).trustProxy).toEqual(trustProxy);
  });
});
