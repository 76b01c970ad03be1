import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * What this browser keeps of the signed-in student, and forgetting it: at log-out, at account deletion, and when a
 * different student signs in on the same browser (a shared computer must not show the last student's unsent
 * messages or cached conversations to the next one).
 */

const LAST_USER_KEY = 'studybuddy.lastUser';
const OUTBOX_PREFIX = 'studybuddy.outbox.';

/** Where a student's unsent messages wait across reloads (the conversations feature's outbox). */
export const outboxStorageKey = (userId: string) => `${OUTBOX_PREFIX}${userId}`;

/**
 * The student signed in last in this browser: offline, with no session to ask, the offline page lists their
 * unsent messages.
 */
export function rememberLastUser(userId: string): void {
  try {
    localStorage.setItem(LAST_USER_KEY, userId);
  } catch {
    // Storage disabled: the offline page then lists nothing.
  }
}

export function lastUser(): string | null {
  try {
    return localStorage.getItem(LAST_USER_KEY);
  } catch {
    return null;
  }
}

export function forgetLastUser(): void {
  try {
    localStorage.removeItem(LAST_USER_KEY);
  } catch {
    // Nothing stored.
  }
}

const listeners = new Set<() => void>();

/** Called when the browser forgets its student (the outbox empties what it holds in memory). */
export function onStudentForgotten(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Forgets everything this browser keeps of its student: every stored outbox, the last-user marker, what is held in
 * memory (the outbox), and the query cache with its loaded conversations (all of it, or all but what `keep` names).
 */
export function forgetStudentData(client?: QueryClient, keep?: (key: QueryKey) => boolean): void {
  try {
    const keys: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith(OUTBOX_PREFIX)) keys.push(key);
    }
    for (const key of keys) localStorage.removeItem(key);
  } catch {
    // Storage disabled: nothing was kept.
  }
  forgetLastUser();
  for (const listener of listeners) listener();
  if (!client) return;
  if (keep) client.removeQueries({ predicate: (q) => !keep(q.queryKey) });
  else client.clear();
}
