import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { sha256 } from '../../platform/passwords.ts';
import { seal, unseal } from './sealed-value.ts';

/**
 * The "known device" cookie: set by a successful log-in, it names the account and a random device id, signed
 * (HMAC under SECRET_KEY). A browser that carries it for the account it logs in to is held back only by its own
 * counter, never by the account's or the IP's lock, so a stranger's guessing cannot lock the student out.
 * It also names the password it was earned with: a password change makes older cookies plain browsers again.
 */

export const DEVICE_COOKIE = 'sb_device';
const PURPOSE = 'known-device';
const DEVICE_MS = 180 * 24 * 60 * 60 * 1000;

interface DeviceData {
  u: string;
  d: string;
  p: string;
}

const passwordTag = (passwordHash: string) => sha256(`known-device:${passwordHash}`).slice(0, 16);

export interface KnownDevices {
  /** The device id when `cookie` was earned by this account with its current password, else null. */
  recognise(cookie: string | undefined, user: { id: string; passwordHash: string | null }): string | null;
  /** Marks this browser a known device of the account (keeps its device id if it had one). */
  remember(reply: FastifyReply, cookie: string | undefined, user: { id: string; passwordHash: string | null }): void;
}

export function knownDevices(secretKey: string, secure: boolean): KnownDevices {
  const read = (cookie: string | undefined) => (cookie ? unseal<DeviceData>(secretKey, PURPOSE, cookie) : null);
  return {
    recognise(cookie, user) {
      const data = read(cookie);
      if (!data || !user.passwordHash || data.u !== user.id || data.p !== passwordTag(user.passwordHash)) return null;
      return typeof data.d === 'string' && data.d ? data.d : null;
    },
    remember(reply, cookie, user) {
      if (!user.passwordHash) return;
      const deviceId = read(cookie)?.d || randomBytes(16).toString('base64url');
      const value = seal(secretKey, PURPOSE, { u: user.id, d: deviceId, p: passwordTag(user.passwordHash) }, DEVICE_MS);
      reply.setCookie(DEVICE_COOKIE, value, {
        path: '/api/auth',
        httpOnly: true,
        sameSite: 'strict',
        secure,
        maxAge: DEVICE_MS / 1000,
      });
    },
  };
}
