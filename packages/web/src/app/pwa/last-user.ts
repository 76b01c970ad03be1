/**
 * The student signed in last in this browser: offline, with no session to ask, the offline page lists their
 * unsent messages. Forgotten at log-out, so the next person on a shared computer does not see them.
 */
const KEY = 'studybuddy.lastUser';

export function rememberLastUser(userId: string): void {
  try {
    localStorage.setItem(KEY, userId);
  } catch {
    // Storage disabled: the offline page then lists nothing.
  }
}

export function lastUser(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function forgetLastUser(): void {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
