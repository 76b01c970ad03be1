import type { ServerFrame } from '@studybuddy/shared/realtime';
import { eventJson, type Envelope } from './event-bus.ts';

/** One open socket of this instance. */
export interface Connection {
  readonly userId: string;
  /** The session the socket was opened with (the SHA-256 of its cookie token). */
  readonly sessionId?: string;
  /** Writes an already serialised frame (an event's bytes are shared by every socket it goes to: never modify them). */
  send(frame: string | Buffer): void;
  /** Closes the socket as signed out (its session ended). */
  close(): void;
}

/** The sockets of this instance by topic; delivers each envelope once to every socket listening to its topics. */
export class Hub {
  private readonly byTopic = new Map<string, Set<Connection>>();
  private readonly topicsOf = new Map<Connection, Set<string>>();
  /** Told how many local sockets each event reached (metrics). */
  onDeliver?: (eventType: string, sockets: number) => void;

  get size(): number {
    return this.topicsOf.size;
  }

  add(conn: Connection): void {
    if (!this.topicsOf.has(conn)) this.topicsOf.set(conn, new Set());
  }

  remove(conn: Connection): void {
    for (const topic of this.topicsOf.get(conn) ?? []) this.detach(conn, topic);
    this.topicsOf.delete(conn);
  }

  subscribe(conn: Connection, topic: string): void {
    const topics = this.topicsOf.get(conn);
    if (!topics || topics.has(topic)) return;
    topics.add(topic);
    let set = this.byTopic.get(topic);
    if (!set) this.byTopic.set(topic, (set = new Set()));
    set.add(conn);
  }

  unsubscribe(conn: Connection, topic: string): void {
    if (this.topicsOf.get(conn)?.delete(topic)) this.detach(conn, topic);
  }

  isSubscribed(conn: Connection, topic: string): boolean {
    return this.topicsOf.get(conn)?.has(topic) ?? false;
  }

  /** Applies one envelope from the bus to the local sockets. */
  deliver(envelope: Envelope): void {
    const targets = new Set<Connection>();
    for (const topic of envelope.topics) for (const conn of this.byTopic.get(topic) ?? []) targets.add(conn);
    if (!targets.size) return;
    if ('control' in envelope) {
      const { control } = envelope;
      if ('unsubscribe' in control) {
        for (const conn of targets) this.unsubscribe(conn, control.unsubscribe);
        return;
      }
      const { sessionId } = control.disconnect;
      for (const conn of targets) if (sessionId === undefined || conn.sessionId === sessionId) conn.close();
      return;
    }
    // Serialised and encoded once; every socket gets the same bytes.
    const frame = Buffer.from(`{"type":"event","event":${eventJson(envelope.event)}}`);
    for (const conn of targets) conn.send(frame);
    this.onDeliver?.(envelope.event.type, targets.size);
  }

  /** Sends one frame to every local socket. */
  broadcast(frame: ServerFrame): void {
    const text = JSON.stringify(frame);
    for (const conn of this.topicsOf.keys()) conn.send(text);
  }

  private detach(conn: Connection, topic: string) {
    const set = this.byTopic.get(topic);
    set?.delete(conn);
    if (set && !set.size) this.byTopic.delete(topic);
  }
}
