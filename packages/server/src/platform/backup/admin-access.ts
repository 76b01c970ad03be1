import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';

export const BACKUP_ROUTE = '/api/admin/backup';

/** The bearer token of the admin endpoints: derived from SECRET_KEY, so only who can read the key can use them. */
export function adminToken(secretKey: string): string {
  return createHmac('sha256', secretKey).update('studybuddy:admin:backup:v1').digest('base64url');
}

export function tokenMatches(secretKey: string, header: string | undefined): boolean {
  const given = Buffer.from(header?.replace(/^Bearer\s+/i, '') ?? '', 'utf8');
  const expected = Buffer.from(adminToken(secretKey), 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * True for a request from this machine, not relayed: the TCP peer (never X-Forwarded-For) is a loopback address
 * or the server's own address, and no proxy header is present (a reverse proxy on this host also connects
 * from 127.0.0.1).
 */
export function isLocalUnproxied(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress ?? '';
  const own = request.socket.localAddress ?? '';
  if (!(LOOPBACK.test(peer) || (peer !== '' && peer === own))) return false;
  const h = request.headers;
  return !h['x-forwarded-for'] && !h.forwarded && !h['x-real-ip'];
}

/** The key the server uses: SECRET_KEY, else the one generated into DATA_DIR/secret.key. */
export function readSecretKey(dataDir: string, env: Record<string, string | undefined> = process.env): string | null {
  const given = env.SECRET_KEY?.trim();
  if (given) return given;
  const file = path.join(dataDir, 'secret.key');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/** Written by a listening server so the commands find it (PGlite has no lock: two processes must not open it). */
export const serverFile = (dataDir: string) => path.join(dataDir, 'server.json');

export interface RunningServer {
  pid: number;
  /** Where this machine reaches the server. */
  url: string;
}

export async function announceServer(dataDir: string, address: AddressInfo): Promise<void> {
  const any = address.address === '0.0.0.0' || address.address === '::';
  const host = any ? '127.0.0.1' : address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const info: RunningServer = { pid: process.pid, url: `http://${host}:${address.port}` };
  await writeFile(serverFile(dataDir), JSON.stringify(info));
}

export async function withdrawServer(dataDir: string): Promise<void> {
  const info = await readServerFile(dataDir);
  if (info?.pid === process.pid) await rm(serverFile(dataDir), { force: true });
}

async function readServerFile(dataDir: string): Promise<RunningServer | null> {
  try {
    return JSON.parse(await readFile(serverFile(dataDir), 'utf8')) as RunningServer;
  } catch {
    return null;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The server using `dataDir`, when its process is alive (a file left by a crash is ignored). */
export async function findRunningServer(dataDir: string): Promise<RunningServer | null> {
  const info = await readServerFile(dataDir);
  return info && Number.isInteger(info.pid) && alive(info.pid) ? info : null;
}
