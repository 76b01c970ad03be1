import { describe, expect, it } from 'vitest';
import type { Envelope } from './event-bus.ts';
import { MAX_PAYLOAD_BYTES, nextPayloads, PayloadDecoder } from './notify-codec.ts';

const envelope = (i: number, text = `message ${i}`): Envelope => ({
  topics: [`user:${i}`],
  event: { type: 'typing', conversation: { kind: 'chat', id: 'a_b' }, userId: String(i), name: text },
});

function drain(origin: string, queue: Envelope[]): string[] {
  const out: string[] = [];
  while (queue.length) out.push(...nextPayloads(origin, queue));
  return out;
}

describe('NOTIFY payload codec', () => {
  it('packs many small envelopes into few payloads under the limit, in order', () => {
    const sent = Array.from({ length: 200 }, (_, i) => envelope(i));
    const payloads = drain('one', [...sent]);
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.length).toBeLessThan(20);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const decoder = new PayloadDecoder('two');
    expect(payloads.flatMap((p) => decoder.decode(p))).toEqual(sent);
  });

  it('splits an envelope too large for one payload (multi-byte text included) and reassembles it', () => {
    const huge = envelope(1, 'ü😀'.repeat(9000));
    const payloads = drain('one', [envelope(0), huge, envelope(2)]);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
    const decoder = new PayloadDecoder('two');
    // Pieces may arrive in any order.
    const [first, ...rest] = payloads;
    const out = [...decoder.decode(first!), ...rest.reverse().flatMap((p) => decoder.decode(p))];
    expect(out).toHaveLength(3);
    expect(out).toContainEqual(huge);
    expect(decoder.pending).toBe(0);
  });

  it('ignores its own payloads and forgets pieces of an envelope that never completes', () => {
    const payloads = drain('one', [envelope(1, 'x'.repeat(20_000))]);
    expect(new PayloadDecoder('one').decode(payloads[0]!)).toEqual([]);
    const decoder = new PayloadDecoder('two', 1000);
    decoder.decode(payloads[0]!, 0);
    expect(decoder.pending).toBe(1);
    decoder.decode(drain('one', [envelope(2, 'y'.repeat(20_000))])[0]!, 5000);
    expect(decoder.pending).toBe(1);
  });
});
