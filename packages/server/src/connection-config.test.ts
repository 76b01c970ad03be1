import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';
import { CONNECTION_DEFAULTS, loadConnectionLimits } from './connection-config.ts';

describe('connection limits (slow clients, issue 31)', () => {
  it('has defaults that let long uploads finish: no total request time, a minimum body rate instead', () => {
    expect(loadConnectionLimits({})).toEqual({
      headersTimeoutMs: CONNECTION_DEFAULTS.HEADERS_TIMEOUT * 1000,
      requestTimeoutMs: 0,
      bodyTimeoutMs: CONNECTION_DEFAULTS.BODY_TIMEOUT * 1000,
      bodyMinBytesPerSecond: CONNECTION_DEFAULTS.BODY_MIN_BYTES_PER_SECOND,
      idleTimeoutMs: CONNECTION_DEFAULTS.CONNECTION_TIMEOUT * 1000,
      keepAliveTimeoutMs: CONNECTION_DEFAULTS.KEEP_ALIVE_TIMEOUT * 1000,
      perIp: CONNECTION_DEFAULTS.CONNECTIONS_PER_IP,
    });
    // A 25 MB document at the minimum rate is let through, however long it takes.
    expect(CONNECTION_DEFAULTS.REQUEST_TIMEOUT).toBe(0);
  });

  it('reads every setting', () => {
    expect(
      loadConnectionLimits({
        HEADERS_TIMEOUT: '10',
        REQUEST_TIMEOUT: '600',
        BODY_TIMEOUT: '0.5',
        BODY_MIN_BYTES_PER_SECOND: '1000',
        CONNECTION_TIMEOUT: '30',
        KEEP_ALIVE_TIMEOUT: '65',
        CONNECTIONS_PER_IP: '1000',
      }),
    ).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 600_000,
      bodyTimeoutMs: 500,
      bodyMinBytesPerSecond: 1000,
      idleTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      perIp: 1000,
    });
  });

  it('stops the server at start on a bad value, naming the setting', () => {
    const bad = (env: Record<string, string>) => () => loadConfig({ DATA_DIR: '/tmp/sb-conn-config', ...env });
    expect(bad({ HEADERS_TIMEOUT: '0' })).toThrow(ConfigError);
    expect(bad({ HEADERS_TIMEOUT: 'soon' })).toThrow(/HEADERS_TIMEOUT must be a positive number of seconds/);
    expect(bad({ REQUEST_TIMEOUT: '-1' })).toThrow(/REQUEST_TIMEOUT must be a non-negative number/);
    expect(bad({ CONNECTIONS_PER_IP: '2.5' })).toThrow(/CONNECTIONS_PER_IP must be a positive integer/);
    expect(bad({ BODY_MIN_BYTES_PER_SECOND: '0' })).toThrow(/BODY_MIN_BYTES_PER_SECOND/);
    expect(bad({ HEADERS_TIMEOUT: '60', REQUEST_TIMEOUT: '30' })).toThrow(/HEADERS_TIMEOUT must not be longer/);
    expect(loadConfig({ DATA_DIR: '/tmp/sb-conn-config', REQUEST_TIMEOUT: '0' }).connections.requestTimeoutMs).toBe(0);
  });
});
