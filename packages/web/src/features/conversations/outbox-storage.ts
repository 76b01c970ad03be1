import { outboxStorageKey } from '../../lib/student-data.ts';
import type { OutboxEntry } from './outbox.ts';

/** Where a student's unsent messages wait across reloads (text, and attachments already uploaded). */
export { outboxStorageKey };

/** An unsent message as stored (the file of an attachment not uploaded yet is not kept). */
export type StoredOutboxEntry = Omit<OutboxEntry, 'file' | 'localUrl'>;

/** The student's unsent messages as the last tab left them, oldest first (the offline page lists them). */
export function readStoredOutbox(userId: string): StoredOutboxEntry[] {
  try {
    const raw = localStorage.getItem(outboxStorageKey(userId));
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? (parsed as StoredOutboxEntry[]) : [];
  } catch {
    return [];
  }
}
