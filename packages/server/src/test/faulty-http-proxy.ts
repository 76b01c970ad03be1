// An HTTP proxy in front of a service (the local S3 server) that can fail the way a real one does (issue 31):
// 'pass' forwards every request, 'error' answers each with a 500 InternalError as S3 does, 'hang' takes the
// request and never answers. Switching back to 'pass' lets the hung connections go (they are destroyed).
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export type ProxyMode = 'pass' | 'error' | 'hang';

export interface FaultyProxy {
  url: string;
  mode: ProxyMode;
  /** Requests seen in each mode. */
  readonly counts: Record<ProxyMode, number>;
  close(): Promise<void>;
}

const S3_ERROR =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InternalError</Code>' +
  '<Message>We encountered an internal error. Please try again.</Message></Error>';

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const upstream = new URL(target);
  const hung = new Set<Socket>();
  const sockets = new Set<Socket>();
  const counts: Record<ProxyMode, number> = { pass: 0, error: 0, hang: 0 };
  let mode: ProxyMode = 'pass';

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    out.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(out);
  };

  const server = createServer((req, res) => {
    counts[mode]++;
    if (mode === 'pass') return forward(req, res);
    if (mode === 'error') {
      req.resume();
      req.on('end', () => res.writeHead(500, { 'content-type': 'application/xml' }).end(S3_ERROR));
      return;
    }
    // 'hang': read what comes, answer nothing.
    req.resume();
    hung.add(req.socket);
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.once('close', () => {
      sockets.delete(s);
      hung.delete(s);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    set mode(next: ProxyMode) {
      mode = next;
      if (next !== 'hang') for (const s of hung) s.destroy();
    },
    counts,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
