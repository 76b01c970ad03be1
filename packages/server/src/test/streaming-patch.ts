import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

const MB = 1024 * 1024;

/**
 * A tus PATCH whose body goes out a megabyte at a time, `pauseMs` apart (an upload that a server's death can cut
 * half-way); `onSent` hears how much has been written. Resolves with the answer's status, or 0 when the connection
 * broke.
 */
export function streamingPatch(
  url: string,
  cookie: string,
  offset: number,
  body: Buffer,
  onSent: (bytes: number) => void,
  pauseMs: number,
): Promise<number> {
  return new Promise<number>((resolve) => {
    const req = request(url, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        cookie,
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(body.length),
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    void (async () => {
      for (let at = 0; at < body.length && !req.destroyed; at += MB) {
        const chunk = body.subarray(at, at + MB);
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        onSent(at + chunk.length);
        await sleep(pauseMs);
      }
      req.end();
    })();
  });
}
