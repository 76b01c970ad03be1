// A TCP proxy for tests that can cut the line: `cut()` drops every open connection and refuses new ones (as a
// database that restarts or fails over does), `restore()` listens again on the same port.
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface CutProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startCutProxy(target: { host: string; port: number }): Promise<CutProxy> {
  const open = new Set<Socket>();
  const track = (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  };
  let server: Server | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const srv = createServer((client) => {
        const upstream = connect(target.port, target.host);
        track(client);
        track(upstream);
        client.on('error', () => upstream.destroy());
        upstream.on('error', () => client.destroy());
        client.pipe(upstream).pipe(client);
      });
      srv.once('error', reject);
      srv.listen(port, '127.0.0.1', () => {
        server = srv;
        resolve((srv.address() as { port: number }).port);
      });
    });
  const port = await listen(0);
  const stop = async () => {
    const srv = server;
    server = null;
    for (const s of open) s.destroy();
    if (srv) await new Promise<void>((resolve) => srv.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    async restore() {
      if (!server) await listen(port);
    },
    close: stop,
  };
}
