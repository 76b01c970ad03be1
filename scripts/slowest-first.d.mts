import type { TestSequencerConstructor } from 'vitest/node';

export function slowestFirst(names: string[]): TestSequencerConstructor;
