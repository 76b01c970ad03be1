import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Small tamper-proof values for the browser (resend tickets, the OIDC login state cookie): JSON plus an
 * expiry, signed with HMAC-SHA256 under a key derived from SECRET_KEY and the value's purpose, so a value
 * made for one purpose never passes as another.
 */
function mac(secret: string, purpose: string, body: string): Buffer {
  const key = createHmac('sha256', secret).update(`studybuddy:${purpose}`).digest();
  return createHmac('sha256', key).update(body).digest();
}

export function seal(secret: string, purpose: string, data: unknown, ttlMs: number, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ d: data, e: now + ttlMs })).toString('base64url');
  return `${body}.${mac(secret, purpose, body).toString('base64url')}`;
}

/** The sealed data, or null when the value is malformed, forged, for another purpose or expired. */
export function unseal<T>(secret: string, purpose: string, value: string, now = Date.now()): T | null {
  const [body, signature, extra] = value.split('.');
  if (!body || !signature || extra !== undefined) return null;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, purpose, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as { d: T; e: number };
    return typeof parsed.e === 'number' && parsed.e > now ? parsed.d : null;
  } catch {
    return null;
  }
}
