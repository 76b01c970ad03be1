import { beforeEach, describe, expect, it } from 'vitest';
import { outboxStorageKey, readStoredOutbox } from './outbox-storage.ts';

describe('the stored outbox (read by the offline page)', () => {
  beforeEach(() => localStorage.clear());

  it("reads one student's unsent messages, and nothing of another's", () => {
    const entry = {
      id: 'm1',
      conversation: { kind: 'chat', id: 'a_b' },
      type: 'text',
      text: 'hello',
      senderId: 'a',
      senderName: 'Ada',
      createdAt: '2026-11-24T10:00:00.000Z',
      status: 'pending',
    };
    localStorage.setItem(outboxStorageKey('a'), JSON.stringify([entry]));
    expect(readStoredOutbox('a')).toEqual([entry]);
    expect(readStoredOutbox('b')).toEqual([]);
  });

  it('reads broken storage as empty', () => {
    localStorage.setItem(outboxStorageKey('a'), '{not json');
    expect(readStoredOutbox('a')).toEqual([]);
    localStorage.setItem(outboxStorageKey('a'), '{"an":"object"}');
    expect(readStoredOutbox('a')).toEqual([]);
  });
});
