import { connect, createServer, type Socket } from 'node:net';

/** One HTTP request seen by the proxy (client → server direction). */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Body bytes forwarded to the server. */
  bodyBytes: number;
  /** Answered by the proxy itself (failNext) instead of the server. */
  failed?: number;
  /** The proxy cut the connection inside this request's body. */
  cut?: boolean;
}

export interface TcpProxy {
  url: string;
  requests: SeenRequest[];
  /** Body bytes of every PATCH forwarded so far. */
  patchBytes(): number;
  /** Cuts the connection once this many PATCH body bytes (counted over all PATCHes) have been forwarded. */
  cutPatchesAt(bytes: number): void;
  /** Limits client → server throughput (bytes per second; 0 turns it off). */
  throttle(bytesPerSecond: number): void;
  /** Answers the next request with this method with `status` (and closes), without forwarding it. */
  failNext(method: string, status: number): void;
  close(): Promise<void>;
}

/**
 * A loopback TCP proxy in front of the server that understands just enough HTTP/1.1 to count request bodies,
 * so tests can cut a connection in the middle of an upload, slow it down or fail a request.
 */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let cutAt: number | null = null;
  let bps = 0;
  const failures: { method: string; status: number }[] = [];
  const patchBytes = () => requests.filter((r) => r.method === 'PATCH').reduce((n, r) => n + r.bodyBytes, 0);

  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(client).add(upstream);
    const closeBoth = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', () => upstream.end());
    upstream.on('close', () => client.end());
    client.on('error', closeBoth);
    upstream.on('error', closeBoth);
    upstream.pipe(client);

    let head = Buffer.alloc(0);
    let remaining = 0;
    let current: SeenRequest | null = null;
    // After an Upgrade (WebSocket) the connection is no longer HTTP: pass it through untouched.
    let raw = false;

    const forward = (data: Buffer) => {
      if (!data.length) return;
      const ok = upstream.write(data);
      if (bps > 0) {
        client.pause();
        setTimeout(() => client.resume(), (data.length / bps) * 1000);
      } else if (!ok) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    };

    client.on('data', (chunk: Buffer) => {
      if (raw) return forward(chunk);
      let data = chunk;
      while (data.length) {
        if (remaining === 0) {
          head = Buffer.concat([head, data]);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) return;
          const text = head.subarray(0, end).toString('latin1');
          const [requestLine, ...lines] = text.split('\r\n');
          const [method = '', path = ''] = requestLine!.split(' ');
          const headers: Record<string, string> = {};
          for (const line of lines) {
            const i = line.indexOf(':');
            if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
          }
          current = { method, path, headers, bodyBytes: 0 };
          requests.push(current);
          const failure = failures.findIndex((f) => f.method === method);
          if (failure >= 0) {
            const { status } = failures.splice(failure, 1)[0]!;
            current.failed = status;
            client.end(`HTTP/1.1 ${status} Injected\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
            upstream.destroy();
            return;
          }
          forward(head.subarray(0, end + 4));
          data = head.subarray(end + 4);
          head = Buffer.alloc(0);
          if (headers.upgrade) {
            raw = true;
            return forward(data);
          }
          remaining = Number(headers['content-length'] ?? 0);
          continue;
        }
        let take = Math.min(remaining, data.length);
        let cutNow = false;
        if (current?.method === 'PATCH' && cutAt !== null && patchBytes() + take >= cutAt) {
          take = Math.max(0, cutAt - patchBytes());
          cutNow = true;
        }
        forward(data.subarray(0, take));
        if (current) current.bodyBytes += take;
        remaining -= take;
        data = data.subarray(take);
        if (cutNow && current) {
          current.cut = true;
          cutAt = null;
          // Everything forwarded so far reaches the server; then both sides of this connection are dropped.
          upstream.end();
          client.destroy();
          return;
        }
      }
    });
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    patchBytes,
    cutPatchesAt: (bytes) => void (cutAt = bytes),
    throttle: (rate) => void (bps = rate),
    failNext: (method, status) => void failures.push({ method, status }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
