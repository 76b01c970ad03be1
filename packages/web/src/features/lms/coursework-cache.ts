import { LIMITS } from '@studybuddy/shared/limits';
import type { CourseworkResponse } from '@studybuddy/shared/lms';

/**
 * The browser's coursework cache (requirements §3): per user, keyed by the connection id (a hash of the stored
 * credentials the server gives out, never the token), trusted while under 24 hours old.
 */
interface Entry {
  connectionId: string;
  data: CourseworkResponse;
}

const key = (userId: string) => `sb.coursework.${userId}`;

export function readCourseworkCache(userId: string, connectionId: string, now = Date.now()): CourseworkResponse | null {
  try {
    const raw = localStorage.getItem(key(userId));
    if (!raw) return null;
    const entry = JSON.parse(raw) as Entry;
    if (entry.connectionId !== connectionId || !Array.isArray(entry.data?.coursework)) return null;
    const age = now - Date.parse(entry.data.fetched_at);
    return age >= 0 && age < LIMITS.courseworkCacheMs ? entry.data : null;
  } catch {
    return null;
  }
}

export function writeCourseworkCache(userId: string, connectionId: string, data: CourseworkResponse): void {
  try {
    localStorage.setItem(key(userId), JSON.stringify({ connectionId, data } satisfies Entry));
  } catch {
    // Storage full or blocked: the server cache still serves.
  }
}

export function clearCourseworkCache(userId: string): void {
  try {
    localStorage.removeItem(key(userId));
  } catch {
    // nothing to clear
  }
}
