import { describe, expect, it } from 'vitest';
import { stronglyConnected } from './strongly-connected.ts';

const graphOf = (edges: [string, string][]) => {
  const g = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (!g.has(a)) g.set(a, new Set());
    if (!g.has(b)) g.set(b, new Set());
    g.get(a)!.add(b);
  }
  return g;
};

describe('stronglyConnected', () => {
  it('finds each loop of two or more nodes once, sorted, and no acyclic part', () => {
    const g = graphOf([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
      ['c', 'd'],
      ['d', 'e'],
      ['e', 'd'],
      ['e', 'f'],
      ['x', 'a'],
    ]);
    expect(stronglyConnected(g)).toEqual([
      ['d', 'e'],
      ['a', 'b', 'c'],
    ]);
  });

  it('answers nothing for a graph without loops, and ignores edges to nodes it does not list', () => {
    expect(
      stronglyConnected(
        graphOf([
          ['a', 'b'],
          ['b', 'c'],
          ['a', 'c'],
        ]),
      ),
    ).toEqual([]);
    expect(stronglyConnected(new Map([['a', ['ghost']]]))).toEqual([]);
  });
});
