import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

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
  ])('fails fast on %j', (env, message) => {
    expect(() => loadConfig(env, dir())).toThrow(ConfigError);
    expect(() => loadConfig(env, dir())).toThrow(message);
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
