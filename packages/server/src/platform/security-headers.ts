import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers on every answer (pages, static assets, API), set by hand rather than with @fastify/helmet:
 * the only dynamic part, a per-page style nonce, is tied to how spa.ts serves index.html, and the
 * Permissions-Policy (which helmet does not set) is hand-written anyway; the rest are fixed strings.
 */

/** Written into index.html by Vite (`html.cspNonce`); spa.ts replaces it with the answer's nonce. */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * The web app's needs: scripts and stylesheets only from our own files (no inline script, no eval); the
 * `<style>` elements Mantine and react-remove-scroll add at run time carry the page's nonce; avatars, chat
 * images and the crop tool show blob:/data: images; voice messages play blob: audio; the API and the realtime
 * WebSocket are on our own origin.
 */
export function contentSecurityPolicy(publicUrl: string, styleNonce?: string): string {
  const origin = new URL(publicUrl);
  const https = origin.protocol === 'https:';
  const ws = `${https ? 'wss' : 'ws'}://${origin.host}`;
  const directives = [
    "default-src 'self'",
    "script-src 'self'",
    `style-src 'self'${styleNonce ? ` 'nonce-${styleNonce}'` : ''}`,
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${ws}`,
    // The service worker (/sw.js) and the web app manifest are our own files.
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    ...(https ? ['upgrade-insecure-requests'] : []),
  ];
  return directives.join('; ');
}

/** Microphone for our own pages (voice messages); every other powerful feature off. */
export const PERMISSIONS_POLICY = [
  'microphone=(self)',
  'camera=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'magnetometer=()',
  'gyroscope=()',
  'accelerometer=()',
  'display-capture=()',
  'browsing-topics=()',
].join(', ');

export function newCspNonce(): string {
  return randomBytes(16).toString('base64');
}

export function installSecurityHeaders(app: FastifyInstance, publicUrl: string): void {
  const headers: Record<string, string> = {
    'Content-Security-Policy': contentSecurityPolicy(publicUrl),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': PERMISSIONS_POLICY,
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ...(new URL(publicUrl).protocol === 'https:'
      ? { 'Strict-Transport-Security': 'max-age=31536000; includeSubDomains' }
      : {}),
  };
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
}
