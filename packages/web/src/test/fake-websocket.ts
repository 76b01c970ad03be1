import type { ClientFrame, ServerFrame } from '@studybuddy/shared/realtime';

/**
 * A WebSocket the test plays the server of: `accept()` opens it, `receive()` delivers a frame, `drop()` cuts it.
 * Install with `vi.stubGlobal('WebSocket', FakeWebSocket)`; every socket the app opens is in `FakeWebSocket.all`.
 */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: FakeWebSocket[] = [];

  readyState = FakeWebSocket.CONNECTING;
  /** Frames the app sent, parsed. */
  readonly sent: ClientFrame[] = [];
  /** True once the app itself closed it. */
  closedByApp = false;
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.all.push(this);
  }

  static get last(): FakeWebSocket {
    const socket = FakeWebSocket.all.at(-1);
    if (!socket) throw new Error('no socket was opened');
    return socket;
  }

  send(data: string): void {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data) as ClientFrame);
  }

  close(): void {
    if (this.readyState >= FakeWebSocket.CLOSING) return;
    this.closedByApp = true;
    this.readyState = FakeWebSocket.CLOSING;
    // As in a browser, the close event comes later.
    queueMicrotask(() => this.finish(1005));
  }

  accept(): void {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
  }

  receive(frame: ServerFrame): void {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(frame) }));
  }

  /** The connection is lost (or refused with `code`). */
  drop(code = 1006): void {
    this.finish(code);
  }

  private finish(code: number) {
    if (this.readyState === FakeWebSocket.CLOSED) return;
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }
}
