import { describe, expect, it } from 'vitest';
import { CanvasGate, CanvasGates } from './canvas-gate.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('CanvasGate', () => {
  it('admits at most maxInFlight and lets follow-up pages go before new lists', async () => {
    const gate = new CanvasGate(2);
    const order: string[] = [];
    const first = await gate.acquire();
    const second = await gate.acquire();
    const waiting = [
      gate.acquire().then((release) => {
        order.push('new list');
        return release;
      }),
      gate.acquire(true).then((release) => {
        order.push('next page');
        return release;
      }),
    ];
    await tick();
    expect(gate.active).toBe(2);
    expect(order).toEqual([]);
    first();
    first(); // releasing twice is harmless
    await tick();
    expect(order).toEqual(['next page']);
    second();
    await tick();
    expect(order).toEqual(['next page', 'new list']);
    for (const release of await Promise.all(waiting)) release();
    expect(gate.active).toBe(0);
    expect(gate.idle).toBe(true);
  });

  it('holds every new request during a pause', async () => {
    const gate = new CanvasGate(6);
    gate.pause(120);
    const started = Date.now();
    (await gate.acquire())();
    expect(Date.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('gives each user one gate', () => {
    const gates = new CanvasGates(6);
    expect(gates.for('a')).toBe(gates.for('a'));
    expect(gates.for('a')).not.toBe(gates.for('b'));
  });
});
