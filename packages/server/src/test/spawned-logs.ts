import type { SpawnedServer } from './spawn-server.ts';

/** The fields of a spawned server's JSON log lines that the multi-instance tests look for. */
export interface LogLine {
  msg?: string;
  job?: string;
  upload?: string;
  yielded?: boolean;
}

/** A spawned server's log so far, one object a JSON line (other lines left out). */
export const logLines = (server: SpawnedServer): LogLine[] =>
  server
    .logs()
    .split('\n')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as LogLine];
      } catch {
        return [];
      }
    });

/** Asks `probe` every `everyMs` until it answers something; throws after `timeoutMs` naming `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A tus Upload-Metadata header: each key with its value in base64. */
export const tusMetadata = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');
