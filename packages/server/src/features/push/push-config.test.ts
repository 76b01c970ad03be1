import { createECDH } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, vapidPair } from '../../config.ts';
import { endpointAllowed, keysValid } from './endpoint-policy.ts';

const dir = () => mkdtempSync(path.join(tmpdir(), 'sb-push-config-'));

describe('Web Push settings', () => {
  it('generates a VAPID key pair once into DATA_DIR and keeps it across restarts', () => {
    const cwd = dir();
    const first = loadConfig({}, cwd).push;
    expect(Buffer.from(first.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(first.privateKey, 'base64url')).toHaveLength(32);
    // The public key is the private key's.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(first.privateKey, 'base64url'));
    expect(ecdh.getPublicKey('base64url')).toBe(first.publicKey);
    expect(loadConfig({}, cwd).push).toMatchObject({ publicKey: first.publicKey, privateKey: first.privateKey });
    expect(first.subject).toBe('mailto:no-reply@studybuddy.local');
  });

  it('gives a private key with leading zero bytes its 32 bytes, and repairs one kept without them', () => {
    // Node drops a private key's leading zero bytes (about one key in 256): Web Push wants all 32.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.concat([Buffer.alloc(1), Buffer.alloc(31, 7)]));
    expect(ecdh.getPrivateKey()).toHaveLength(31);
    const pair = vapidPair(ecdh);
    const d = Buffer.from(pair.privateKey, 'base64url');
    expect(d).toHaveLength(32);
    expect(d.subarray(1)).toEqual(Buffer.alloc(31, 7));
    const cwd = dir();
    mkdirSync(path.join(cwd, 'data'));
    writeFileSync(
      path.join(cwd, 'data', 'vapid.json'),
      JSON.stringify({ publicKey: pair.publicKey, privateKey: ecdh.getPrivateKey('base64url') }),
    );
    expect(loadConfig({}, cwd).push).toMatchObject(pair);
  });

  it('takes VAPID_* settings, and refuses a half or broken pair and a bad subject', () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const pair = vapidPair(ecdh);
    const given = {
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
      VAPID_SUBJECT: 'https://studybuddy.example',
    };
    expect(loadConfig(given, dir()).push).toMatchObject({
      publicKey: given.VAPID_PUBLIC_KEY,
      privateKey: given.VAPID_PRIVATE_KEY,
      subject: 'https://studybuddy.example',
    });
    expect(() => loadConfig({ VAPID_PUBLIC_KEY: given.VAPID_PUBLIC_KEY }, dir())).toThrow(/VAPID_PRIVATE_KEY/);
    expect(() => loadConfig({ ...given, VAPID_PRIVATE_KEY: 'short' }, dir())).toThrow(/P-256 key pair/);
    expect(() => loadConfig({ VAPID_SUBJECT: 'someone' }, dir())).toThrow(/VAPID_SUBJECT/);
  });

  it('accepts only HTTPS endpoints of the configured push services', () => {
    const hosts = loadConfig({}, dir()).push.serviceHosts;
    expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(true);
    expect(endpointAllowed('https://web.push.apple.com/QO', hosts)).toBe(true);
    expect(endpointAllowed('https://wns2-par02p.notify.windows.com/w/?token=x', hosts)).toBe(true);
    expect(endpointAllowed('http://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(false);
    expect(endpointAllowed('https://fcm.googleapis.com.evil.test/x', hosts)).toBe(false);
    expect(endpointAllowed('https://user:pw@fcm.googleapis.com/x', hosts)).toBe(false);
    expect(endpointAllowed('https://localhost/x', hosts)).toBe(false);
    expect(endpointAllowed('not a url', hosts)).toBe(false);
    const custom = loadConfig({ PUSH_SERVICE_HOSTS: ' Push.Example.org , ' }, dir()).push.serviceHosts;
    expect(custom).toEqual(['push.example.org']);
  });

  it('checks subscription keys: a P-256 point and a 16-byte secret', () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = Buffer.alloc(16, 7).toString('base64url');
    expect(keysValid({ p256dh: ecdh.getPublicKey('base64url'), auth })).toBe(true);
    expect(keysValid({ p256dh: ecdh.getPublicKey('base64url', 'compressed'), auth })).toBe(false);
    expect(keysValid({ p256dh: ecdh.getPublicKey('base64url'), auth: 'AAAA' })).toBe(false);
  });
});
