import type { RealtimeEvent } from '@studybuddy/shared/realtime';

const serialised = new WeakMap<RealtimeEvent, string>();

/**
 * An event's JSON, made once however many places send it (this instance's sockets, the NOTIFY to the others).
 * Events are never changed once published.
 */
export function eventJson(event: RealtimeEvent): string {
  let json = serialised.get(event);
  if (json === undefined) serialised.set(event, (json = JSON.stringify(event)));
  return json;
}

/** An envelope's JSON, its event serialised once (`eventJson`). */
export function envelopeJson(envelope: Envelope): string {
  if (!('event' in envelope)) return JSON.stringify(envelope);
  return `{"topics":${JSON.stringify(envelope.topics)},"event":${eventJson(envelope.event)}}`;
}

/** One publication: an event for every socket listening to any of the topics, or a control instruction. */
export type Envelope =
  | { topics: string[]; event: RealtimeEvent }
  /** Sockets of these topics stop listening to `unsubscribe` (e.g. a member who left a group). */
  | { topics: string[]; control: { unsubscribe: string } }
  /** Sockets of these topics close as signed out (only those of session `sessionId` when given): log-out. */
  | { topics: string[]; control: { disconnect: { sessionId?: string } } };

/**
 * Carries envelopes to every app instance (this one included). In-process for a single instance (PGlite);
 * PostgreSQL LISTEN/NOTIFY when several instances share one database.
 */
export interface EventBus {
  readonly kind: 'memory' | 'postgres';
  /** Queues an envelope for every instance; never throws. */
  publish(envelope: Envelope): void;
  /** Called for every envelope, this instance's own first (synchronously) and other instances' on arrival. */
  subscribe(listener: (envelope: Envelope) => void): () => void;
  /** Called when envelopes may have been lost (the bus reconnected): sockets should resync. */
  onGap(listener: () => void): () => void;
  close(): Promise<void>;
}

/** A small listener registry both buses use. */
export class Listeners<T extends unknown[]> {
  private readonly set = new Set<(...args: T) => void>();

  add(fn: (...args: T) => void): () => void {
    this.set.add(fn);
    return () => void this.set.delete(fn);
  }

  emit(onError: (err: unknown) => void, ...args: T): void {
    for (const fn of this.set) {
      try {
        fn(...args);
      } catch (err) {
        onError(err);
      }
    }
  }
}
