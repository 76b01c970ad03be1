import { describe, expect, it } from 'vitest';
import { decryptSecret, DecryptError, encryptSecret } from './crypto.ts';

const KEY = 'k'.repeat(40);

describe('secret boxes (AES-256-GCM)', () => {
  it('round-trips and never contains the plaintext', () => {
    const token = '7~abcdefghijklmnopqrstuvwxyz0123456789';
    const box = encryptSecret(KEY, token, 'user-1');
    expect(box.startsWith('v1.')).toBe(true);
    expect(box).not.toContain(token);
    expect(box).not.toContain(Buffer.from(token).toString('base64'));
    expect(decryptSecret(KEY, box, 'user-1')).toBe(token);
  });

  it('uses a fresh IV each time', () => {
    expect(encryptSecret(KEY, 'same', 'u')).not.toBe(encryptSecret(KEY, 'same', 'u'));
  });

  it('refuses another key, another context and a tampered box', () => {
    const box = encryptSecret(KEY, 'secret-token-value', 'user-1');
    expect(() => decryptSecret('x'.repeat(40), box, 'user-1')).toThrow(DecryptError);
    expect(() => decryptSecret(KEY, box, 'user-2')).toThrow(DecryptError);
    const parts = box.split('.');
    const ct = Buffer.from(parts[3]!, 'base64url');
    ct[0] = ct[0]! ^ 1;
    parts[3] = ct.toString('base64url');
    expect(() => decryptSecret(KEY, parts.join('.'), 'user-1')).toThrow(DecryptError);
    expect(() => decryptSecret(KEY, 'plain-text', 'user-1')).toThrow(DecryptError);
  });
});
