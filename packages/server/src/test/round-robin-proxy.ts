// A small reverse proxy for tests: each new HTTP request and each WebSocket goes to the next backend in turn
// (no stickiness at all), so a client's requests are spread over every instance.
import { createServer, request, type IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';

export interface Routed {
  kind: 'http' | 'ws';
  method: string;
  path: string;
  /** Index of the backend it went to. */
  backend: number;
}

export interface RoundRobinProxy {
  url: string;
  /** Ports of the backends, taken in turn. */
  backends: number[];
  /** Every request and WebSocket, in the order they arrived, with the backend each went to. */
  readonly routed: Routed[];
  close(): Promise<void>;
}

/** The request line and headers of `req` as they arrived (for an upgrade passed on as raw bytes). */
function head(req: IncomingMessage): string {
  const lines = [`${req.method} ${req.url} HTTP/1.1`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
  const routed: Routed[] = [];
  const open = new Set<Duplex>();
  let turn = 0;
  const proxy: Omit<RoundRobinProxy, 'url'> = { backends: [], routed, close: async () => undefined };
  const next = (kind: Routed['kind'], req: IncomingMessage) => {
    if (!proxy.backends.length) throw new Error('the proxy has no backends yet');
    const backend = turn++ % proxy.backends.length;
    routed.push({ kind, method: req.method ?? '', path: req.url ?? '', backend });
    return proxy.backends[backend]!;
  };
  const track = (s: Duplex) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };

  const server = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: next('http', req), method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    req.pipe(upstream);
    // A client that goes away mid-request: the instance sees its connection drop too.
    req.on('close', () => {
      if (!req.complete) upstream.destroy();
    });
  });
  server.on('connection', track);

  server.on('upgrade', (req: IncomingMessage, client: Socket, rest: Buffer) => {
    track(client);
    const upstream = connect(next('ws', req), '127.0.0.1', () => {
      upstream.write(head(req));
      if (rest.length) upstream.write(rest);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    track(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return Object.assign(proxy, {
    url: `http://127.0.0.1:${port}`,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
