import { randomUUID } from 'node:crypto';
import { envelopeJson, type Envelope } from './event-bus.ts';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; stay well below. */
export const MAX_PAYLOAD_BYTES = 7500;
const CHUNK_CHARS = 7000;

/** What travels in one NOTIFY: a batch of envelopes, or one piece of an envelope too large for a payload. */
type Wire = { b: Envelope[] } | { c: { id: string; i: number; n: number; d: string } };

/** `<origin>|<json>`: the origin first, so an instance skips its own payloads without parsing them. */
const frame = (origin: string, wire: string) => `${origin}|${wire}`;

/**
 * Packs queued envelopes into NOTIFY payloads: as many whole envelopes per payload as fit, and an envelope that
 * cannot fit alone as base64 pieces reassembled by the receiver. Consumes `queue` from the front.
 */
export function nextPayloads(origin: string, queue: Envelope[]): string[] {
  const first = queue[0];
  if (!first) return [];
  const firstJson = envelopeJson(first);
  const single = frame(origin, `{"b":[${firstJson}]}`);
  if (Buffer.byteLength(single) > MAX_PAYLOAD_BYTES) {
    queue.shift();
    const data = Buffer.from(firstJson).toString('base64');
    const n = Math.ceil(data.length / CHUNK_CHARS);
    const id = randomUUID();
    return Array.from({ length: n }, (_, i) =>
      frame(
        origin,
        JSON.stringify({ c: { id, i, n, d: data.slice(i * CHUNK_CHARS, (i + 1) * CHUNK_CHARS) } } satisfies Wire),
      ),
    );
  }
  // Built by hand so each envelope is serialised once: origin|{"b":[e1,e2,...]}
  const head = `${origin}|{"b":[`;
  const parts: string[] = [];
  let bytes = Buffer.byteLength(head) + 2;
  while (queue.length) {
    const json = envelopeJson(queue[0]!);
    const size = Buffer.byteLength(json) + (parts.length ? 1 : 0);
    if (parts.length && bytes + size > MAX_PAYLOAD_BYTES) break;
    parts.push(json);
    bytes += size;
    queue.shift();
  }
  return [`${head}${parts.join(',')}]}`];
}

/** Reassembles payloads from other instances into envelopes; pieces of an unfinished envelope expire. */
export class PayloadDecoder {
  private readonly pieces = new Map<string, { parts: string[]; got: number; at: number }>();

  constructor(
    private readonly origin: string,
    private readonly maxAgeMs = 30_000,
  ) {}

  /** Envelopes completed by this payload (none for this instance's own payloads). */
  decode(payload: string, now = Date.now()): Envelope[] {
    const bar = payload.indexOf('|');
    if (bar < 0 || payload.slice(0, bar) === this.origin) return [];
    const wire = JSON.parse(payload.slice(bar + 1)) as Wire;
    if ('b' in wire) return wire.b;
    const { id, i, n, d } = wire.c;
    this.expire(now);
    let entry = this.pieces.get(id);
    if (!entry) this.pieces.set(id, (entry = { parts: new Array<string>(n), got: 0, at: now }));
    if (entry.parts[i] === undefined) {
      entry.parts[i] = d;
      entry.got += 1;
    }
    if (entry.got < n) return [];
    this.pieces.delete(id);
    return [JSON.parse(Buffer.from(entry.parts.join(''), 'base64').toString()) as Envelope];
  }

  get pending(): number {
    return this.pieces.size;
  }

  private expire(now: number) {
    for (const [id, entry] of this.pieces) if (now - entry.at > this.maxAgeMs) this.pieces.delete(id);
  }
}
