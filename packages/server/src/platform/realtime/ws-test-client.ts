import WebSocket from 'ws';
import type { ClientFrame, RealtimeEvent, ServerFrame } from '@studybuddy/shared/realtime';

/** A WebSocket client for tests: records every frame and waits for the ones a test expects. */
export class WsTestClient {
  readonly frames: ServerFrame[] = [];
  private waiters: Array<() => void> = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as ServerFrame);
      for (const wake of this.waiters.splice(0)) wake();
    });
    ws.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Opens `ws://…/api/ws` with the session cookie; rejects when the handshake is refused. */
  static connect(
    baseUrl: string,
    cookie: string,
    headers: Record<string, string> = {},
    cursor?: number,
  ): Promise<WsTestClient> {
    const query = cursor === undefined ? '' : `?cursor=${cursor}`;
    const ws = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/ws${query}`, { headers: { cookie, ...headers } });
    const client = new WsTestClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  get events(): RealtimeEvent[] {
    return this.frames.flatMap((f) => (f.type === 'event' ? [f.event] : []));
  }

  send(frame: ClientFrame | Record<string, unknown>): void {
    this.ws.send(JSON.stringify(frame));
  }

  /** The first frame (from `from` on) matching, waiting up to `timeoutMs`. */
  async waitFor<T extends ServerFrame>(
    match: (f: ServerFrame) => f is T,
    timeoutMs?: number,
    from?: number,
  ): Promise<T>;
  async waitFor(match: (f: ServerFrame) => boolean, timeoutMs?: number, from?: number): Promise<ServerFrame>;
  async waitFor(match: (f: ServerFrame) => boolean, timeoutMs = 5000, from = 0): Promise<ServerFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.slice(from).find(match);
      if (found) return found;
      if (Date.now() > deadline || this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(this.frames).slice(0, 2000)}`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Waits for an event of this type matching `match`. */
  async waitForEvent<K extends RealtimeEvent['type']>(
    type: K,
    match: (e: Extract<RealtimeEvent, { type: K }>) => boolean = () => true,
    timeoutMs = 5000,
  ): Promise<Extract<RealtimeEvent, { type: K }>> {
    const frame = await this.waitFor(
      (f) => f.type === 'event' && f.event.type === type && match(f.event as Extract<RealtimeEvent, { type: K }>),
      timeoutMs,
    );
    return (frame as Extract<ServerFrame, { type: 'event' }>).event as Extract<RealtimeEvent, { type: K }>;
  }

  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
