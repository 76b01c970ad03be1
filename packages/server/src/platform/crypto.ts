import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (LMS tokens): AES-256-GCM with a key derived from SECRET_KEY by HKDF-SHA256.
 * A box is `v1.<iv>.<tag>.<ciphertext>` (base64url). `context` (e.g. the user id) is bound as associated
 * data, so a box copied to another row does not decrypt.
 */
const VERSION = 'v1';
const keys = new Map<string, Buffer>();

function keyFor(secretKey: string): Buffer {
  let key = keys.get(secretKey);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secretKey, 'studybuddy', 'secret-box:aes-256-gcm', 32));
    keys.set(secretKey, key);
  }
  return key;
}

export class DecryptError extends Error {}

export function encryptSecret(secretKey: string, plaintext: string, context = ''): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(secretKey), iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), ct]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plaintext of a box made by encryptSecret with the same key and context; DecryptError otherwise. */
export function decryptSecret(secretKey: string, box: string, context = ''): string {
  const [version, iv, tag, ct] = box.split('.');
  if (version !== VERSION || !iv || !tag || ct === undefined) throw new DecryptError('not an encrypted secret');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyFor(secretKey), Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new DecryptError('the secret cannot be decrypted with this key');
  }
}
