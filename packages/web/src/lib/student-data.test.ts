import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { forgetStudentData, lastUser, onStudentForgotten, outboxStorageKey, rememberLastUser } from './student-data.ts';

describe("forgetting the browser's student", () => {
  beforeEach(() => localStorage.clear());

  it('removes every stored outbox and the last-user marker, tells the holders, and clears the cache', () => {
    rememberLastUser('a');
    localStorage.setItem(outboxStorageKey('a'), '[{"id":"m1"}]');
    localStorage.setItem(outboxStorageKey('b'), '[{"id":"m2"}]');
    localStorage.setItem('studybuddy.updateSeen', '1.0');
    let told = 0;
    const off = onStudentForgotten(() => told++);
    const client = new QueryClient();
    client.setQueryData(['messages', 'chat', 'a_b'], { pages: [] });
    client.setQueryData(['session'], { user: { id: 'b' } });

    forgetStudentData(client, (key) => key[0] === 'session');
    off();
    expect(localStorage.getItem(outboxStorageKey('a'))).toBeNull();
    expect(localStorage.getItem(outboxStorageKey('b'))).toBeNull();
    expect(lastUser()).toBeNull();
    expect(localStorage.getItem('studybuddy.updateSeen')).toBe('1.0');
    expect(told).toBe(1);
    expect(client.getQueryData(['messages', 'chat', 'a_b'])).toBeUndefined();
    expect(client.getQueryData(['session'])).toEqual({ user: { id: 'b' } });

    forgetStudentData(client);
    expect(client.getQueryData(['session'])).toBeUndefined();
    expect(told).toBe(1);
  });
});
