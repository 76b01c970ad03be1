/**
 * The server posts to whatever endpoint a subscription names, so only HTTPS addresses of the configured push
 * services (PUSH_SERVICE_HOSTS, subdomains included) are accepted: no internal address can be reached this way.
 */
export function endpointAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  return hosts.some((h) => host === h || host.endsWith(`.${h}`));
}

/** p256dh must be an uncompressed P-256 point (65 bytes, 0x04 first), auth a 16-byte secret. */
export function keysValid(keys: { p256dh: string; auth: string }): boolean {
  const p256dh = Buffer.from(keys.p256dh, 'base64url');
  const auth = Buffer.from(keys.auth, 'base64url');
  return p256dh.length === 65 && p256dh[0] === 4 && auth.length === 16;
}
