import { describe, expect, it, vi } from 'vitest';
import type { ServerFrame } from '@studybuddy/shared/realtime';
import { envelopeJson } from './event-bus.ts';
import { Hub, type Connection } from './hub.ts';
import { createMemoryBus } from './memory-bus.ts';

function conn(userId: string, sessionId?: string): Connection & { got: ServerFrame[]; closed: boolean } {
  const got: ServerFrame[] = [];
  const c = {
    userId,
    sessionId,
    got,
    closed: false,
    send: (f: string) => void got.push(JSON.parse(f) as ServerFrame),
    close: () => void (c.closed = true),
  };
  return c;
}

const typing = { type: 'typing', conversation: { kind: 'chat', id: 'a_b' }, userId: 'a', name: 'A' } as const;

describe('hub and in-process bus', () => {
  it('delivers an envelope once to each socket listening to any of its topics', () => {
    const hub = new Hub();
    const bus = createMemoryBus(console);
    bus.subscribe((e) => hub.deliver(e));
    const [a1, a2, b, c] = [conn('a'), conn('a'), conn('b'), conn('c')];
    for (const x of [a1, a2, b, c]) hub.add(x);
    hub.subscribe(a1, 'user:a');
    hub.subscribe(a2, 'user:a');
    hub.subscribe(b, 'user:b');
    hub.subscribe(b, 'conversation:chat:a_b');
    hub.subscribe(c, 'user:c');
    bus.publish({ topics: ['user:a', 'user:b', 'conversation:chat:a_b'], event: typing });
    expect(a1.got).toEqual([{ type: 'event', event: typing }]);
    expect(a2.got).toHaveLength(1);
    expect(b.got).toHaveLength(1);
    expect(c.got).toHaveLength(0);
  });

  it('serialises an event once and writes the same bytes to every socket, as a local and a NOTIFY envelope alike', () => {
    const hub = new Hub();
    const frames: unknown[] = [];
    const socket = (userId: string): Connection => ({ userId, send: (f) => void frames.push(f), close: () => {} });
    const [a, b, c] = [socket('a'), socket('b'), socket('c')];
    for (const x of [a, b, c]) {
      hub.add(x);
      hub.subscribe(x, `user:${x.userId}`);
    }
    const event = { ...typing };
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const envelope = { topics: ['user:a', 'user:b', 'user:c'], event };
      hub.deliver(envelope);
      expect(JSON.parse(envelopeJson(envelope))).toEqual(envelope);
      expect(stringify.mock.calls.filter(([value]) => value === event)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    expect(frames).toHaveLength(3);
    expect(frames[0]).toBeInstanceOf(Buffer);
    expect(frames[1]).toBe(frames[0]);
    expect(frames[2]).toBe(frames[0]);
    expect(JSON.parse(String(frames[0]))).toEqual({ type: 'event', event: typing });
  });

  it('revokes a topic through a control envelope and forgets closed sockets', () => {
    const hub = new Hub();
    const b = conn('b');
    hub.add(b);
    hub.subscribe(b, 'user:b');
    hub.subscribe(b, 'conversation:group:g');
    hub.deliver({ topics: ['user:b'], control: { unsubscribe: 'conversation:group:g' } });
    expect(hub.isSubscribed(b, 'conversation:group:g')).toBe(false);
    hub.deliver({ topics: ['conversation:group:g'], event: typing });
    expect(b.got).toEqual([]);
    hub.remove(b);
    hub.deliver({ topics: ['user:b'], event: typing });
    expect(b.got).toEqual([]);
    expect(hub.size).toBe(0);
  });

  it('closes the sockets of a user, or of one of their sessions, through a control envelope', () => {
    const hub = new Hub();
    const [a1, a2, b] = [conn('a', 's1'), conn('a', 's2'), conn('b', 's3')];
    for (const x of [a1, a2, b]) {
      hub.add(x);
      hub.subscribe(x, `user:${x.userId}`);
    }
    hub.deliver({ topics: ['user:a'], control: { disconnect: { sessionId: 's1' } } });
    expect([a1.closed, a2.closed, b.closed]).toEqual([true, false, false]);
    hub.deliver({ topics: ['user:a'], control: { disconnect: {} } });
    expect([a1.closed, a2.closed, b.closed]).toEqual([true, true, false]);
  });
});
