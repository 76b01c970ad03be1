import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.ts';

const tick = () => new Promise((r) => setImmediate(r));

describe('group commit', () => {
  it('writes what arrives together in one batch, the rest in the next, in submission order', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const writer = new GroupCommit<number, string>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((r) => (release = r));
      return items.map((n) => `ok ${n}`);
    });
    const first = [1, 2, 3].map((n) => writer.submit(n));
    await tick();
    // The first batch is being written: these wait for the next one.
    const second = [4, 5].map((n) => writer.submit(n));
    await tick();
    expect(batches).toEqual([[1, 2, 3]]);
    expect(writer.pending).toBe(2);
    release();
    expect(await Promise.all([...first, ...second])).toEqual(['ok 1', 'ok 2', 'ok 3', 'ok 4', 'ok 5']);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(writer.batchSizes).toEqual([3, 2]);
  });

  it('never writes more than the largest batch at once', async () => {
    const sizes: number[] = [];
    const writer = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        return items;
      },
      { maxBatch: 4 },
    );
    const all = await Promise.all(Array.from({ length: 10 }, (_, i) => writer.submit(i)));
    expect(all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('when a batch fails, writes each item alone: only the bad one fails', async () => {
    const calls: string[][] = [];
    const writer = new GroupCommit<string, string>(async (items) => {
      calls.push(items);
      if (items.includes('bad')) throw new Error('bad row');
      return items.map((s) => s.toUpperCase());
    });
    const results = await Promise.allSettled(['a', 'bad', 'b'].map((s) => writer.submit(s)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 'A' },
      { status: 'rejected', reason: new Error('bad row') },
      { status: 'fulfilled', value: 'B' },
    ]);
    expect(calls).toEqual([['a', 'bad', 'b'], ['a'], ['bad'], ['b']]);
    // And it goes on writing afterwards.
    expect(await writer.submit('c')).toBe('C');
  });

  it('treats a writer that answers the wrong number of outcomes as failed', async () => {
    const writer = new GroupCommit<number, number>(async (items) => (items.length > 1 ? [1] : items));
    expect(await Promise.all([writer.submit(7), writer.submit(8)])).toEqual([7, 8]);
  });

  it('with keys, writes other keys side by side but one key’s items only in order, one write at a time', async () => {
    const started: string[][] = [];
    const releases: (() => void)[] = [];
    const writer = new GroupCommit<string, string>(
      async (items) => {
        started.push(items);
        await new Promise<void>((r) => releases.push(r));
        return items;
      },
      { concurrency: 2, keyOf: (s) => s[0]! },
    );
    const first = [writer.submit('a1'), writer.submit('b1')];
    await tick();
    // a2 waits for the write of a1; c1 may go beside it.
    const later = [writer.submit('a2'), writer.submit('c1')];
    await tick();
    await tick();
    expect(started).toEqual([['a1', 'b1'], ['c1']]);
    // Two writes are under way: nothing more starts.
    const d1 = writer.submit('d1');
    await tick();
    await tick();
    expect(started).toHaveLength(2);
    releases[0]!();
    await Promise.all(first);
    await tick();
    await tick();
    expect(started[2]).toEqual(['a2', 'd1']);
    releases[1]!();
    releases[2]!();
    expect(await Promise.all([...later, d1])).toEqual(['a2', 'c1', 'd1']);
  });
});
