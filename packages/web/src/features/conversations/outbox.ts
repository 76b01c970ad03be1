import { useSyncExternalStore } from 'react';
import type {
  ChatMessage,
  ConversationRef,
  MessageType,
  SendMessageInput,
  SendMessageResult,
} from '@studybuddy/shared/chat';
import type { MessageQuote } from '@studybuddy/shared/message-extras';
import { MSG } from '@studybuddy/shared/messages';
import { ApiRequestError } from '../../lib/api.ts';
import { realtime } from '../../lib/realtime.ts';
import { onStudentForgotten } from '../../lib/student-data.ts';
import { conversationsApi } from './conversations-api.ts';
import { outboxStorageKey, readStoredOutbox } from './outbox-storage.ts';

/**
 * Messages of this tab not acknowledged yet. Each has the id the server stores it under, so sending it again
 * after a failure never makes a second copy. Sent in order over the real-time socket (its `send` op, acknowledged
 * after the commit), or over HTTP while the client polls because the socket cannot open; kept while offline (text
 * messages survive a reload) and sent when the connection returns.
 */
export interface OutboxEntry {
  id: string;
  conversation: ConversationRef;
  type: MessageType;
  /** The text of a text message. */
  text?: string;
  /** An image or WAV recording not uploaded yet, and its local address for the pending bubble. */
  file?: Blob;
  localUrl?: string;
  /** Address of the uploaded file. */
  url?: string;
  senderId: string;
  senderName: string;
  /** The message this one replies to, as quoted when it was written (issue 30). */
  replyTo?: MessageQuote;
  createdAt: string;
  status: 'pending' | 'failed';
  error?: string;
}

/** How a message reaches the server: the socket's `send` op, answered after the commit (tests pass their own). */
export type MessageSender = (conversation: ConversationRef, message: SendMessageInput) => Promise<SendMessageResult>;

/**
 * Over the socket while it is open or opening; over HTTP once the client gave up on it and polls (a network that
 * blocks WebSockets must not keep a student from sending).
 */
const sendBySocketOrHttp: MessageSender = (ref, message) =>
  realtime.status === 'polling' ? conversationsApi.send(ref, message) : realtime.sendMessage(ref, message);

interface Hooks {
  onSent(message: ChatMessage): void;
  onFailed(entry: OutboxEntry, text: string): void;
}

/** A failure worth retrying: no connection (no open socket), no answer in time, rate limit, server trouble. */
const transient = (err: unknown) =>
  !(err instanceof ApiRequestError) ||
  err.status === 0 ||
  err.status === 408 ||
  err.status === 429 ||
  err.status >= 500;

class Stage extends Error {
  constructor(
    readonly stage: 'upload' | 'no-url' | 'send',
    readonly error: unknown,
  ) {
    super(stage);
  }
}

/** The spec's texts of §8 Friends and Groups for a message that could not be sent. */
function failureText(entry: OutboxEntry, failure: Stage): string {
  const server = failure.error instanceof ApiRequestError ? failure.error.message : '';
  if (entry.conversation.kind === 'group') {
    console.error('Failed to send message', failure.error);
    return MSG.groups.sendFailed;
  }
  if (entry.type === 'voice') {
    if (failure.stage === 'upload') return MSG.chat.voiceUploadFailed;
    if (failure.stage === 'no-url') return MSG.chat.downloadUrlFailed;
    return MSG.chat.voiceSendFailed;
  }
  if (entry.type === 'image' && failure.stage !== 'send') {
    return failure.stage === 'upload' && server ? server : MSG.chat.imageUrlFailed;
  }
  return server || MSG.chat.sendFailed;
}

export class Outbox {
  constructor(private readonly sendMessage: MessageSender = sendBySocketOrHttp) {}

  private entries: OutboxEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private hooks: Hooks | null = null;
  private userId: string | null = null;
  private running = false;
  private retryMs = 1000;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** The entry being sent right now, and entries taken back while they were. */
  private sending: string | null = null;
  private readonly cancelled = new Set<string>();

  /** Starts sending for this user (restores their unsent text messages); returns the unbind function. */
  bind(userId: string, hooks: Hooks): () => void {
    this.hooks = hooks;
    if (this.userId !== userId) {
      this.userId = userId;
      this.entries = this.restore(userId);
      this.changed();
    }
    window.addEventListener('online', this.kickNow);
    this.kick();
    return () => {
      window.removeEventListener('online', this.kickNow);
      clearTimeout(this.retryTimer);
      this.hooks = null;
    };
  }

  add(entry: Omit<OutboxEntry, 'status' | 'createdAt'>): void {
    this.entries = [...this.entries, { ...entry, status: 'pending', createdAt: new Date().toISOString() }];
    this.changed();
    this.kick();
  }

  retry(id: string): void {
    this.update(id, { status: 'pending', error: undefined });
    this.kickNow();
  }

  discard(id: string): void {
    this.remove(id);
  }

  /**
   * The student takes back a message not acknowledged yet: it is dropped; when it is being sent at this moment, it
   * is deleted for everyone as soon as the server has it (the members then see "Message deleted").
   */
  cancel(id: string): void {
    if (this.sending === id) this.cancelled.add(id);
    this.remove(id);
  }

  /** The server has the message (it came back over the socket): nothing left to send. */
  ack(id: string): void {
    if (this.entries.some((e) => e.id === id)) this.remove(id);
  }

  snapshot(): readonly OutboxEntry[] {
    return this.entries;
  }

  /** Drops every unsent message of the student, in memory (the stored copies are removed by the caller). */
  forget(): void {
    for (const e of this.entries) if (e.localUrl) URL.revokeObjectURL(e.localUrl);
    clearTimeout(this.retryTimer);
    this.entries = [];
    this.userId = null;
    for (const fn of this.listeners) fn();
  }

  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }

  readonly kickNow = () => {
    this.retryMs = 1000;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.kick();
  };

  /** Sends pending entries one by one, in order; stops at a failure worth retrying and tries again later. */
  kick(): void {
    if (this.running || !this.hooks || this.retryTimer) return;
    this.running = true;
    void this.run().finally(() => {
      this.running = false;
      // Added after the last look for work but before this run ended: its kick found the run still going.
      if (this.entries.some((e) => e.status === 'pending')) this.kick();
    });
  }

  private async run() {
    for (;;) {
      const entry = this.entries.find((e) => e.status === 'pending');
      if (!entry || !this.hooks) return;
      try {
        this.sending = entry.id;
        const message = await this.deliver(entry);
        this.sending = null;
        if (this.cancelled.delete(entry.id)) {
          // Taken back while it was on its way: the server has it now, so it is deleted for everyone.
          await conversationsApi.remove(entry.conversation, entry.id).then(
            (res) => this.hooks?.onSent(res.message),
            (err: unknown) =>
              this.hooks?.onFailed(
                entry,
                err instanceof ApiRequestError && err.message ? err.message : MSG.chat.deleteFailed,
              ),
          );
          continue;
        }
        this.hooks?.onSent(message);
        this.remove(entry.id);
        this.retryMs = 1000;
      } catch (err) {
        this.sending = null;
        if (this.cancelled.delete(entry.id)) continue;
        const failure = err instanceof Stage ? err : new Stage('send', err);
        if (failure.stage !== 'no-url' && transient(failure.error)) {
          this.retryTimer = setTimeout(() => {
            this.retryTimer = undefined;
            this.kick();
          }, this.retryMs);
          this.retryMs = Math.min(this.retryMs * 2, 30_000);
          return;
        }
        const text = failureText(entry, failure);
        this.update(entry.id, { status: 'failed', error: text });
        this.hooks?.onFailed(entry, text);
      }
    }
  }

  private async deliver(entry: OutboxEntry): Promise<ChatMessage> {
    let content = entry.text ?? entry.url;
    if (entry.type !== 'text' && !entry.url) {
      let url: string;
      try {
        url = (await conversationsApi.attach(entry.conversation, entry.type, entry.file!)).url;
      } catch (err) {
        throw new Stage('upload', err);
      }
      if (!url) throw new Stage('no-url', null);
      this.update(entry.id, { url });
      content = url;
    }
    try {
      const res = await this.sendMessage(entry.conversation, {
        id: entry.id,
        type: entry.type,
        content: content ?? '',
        ...(entry.replyTo ? { replyTo: entry.replyTo.id } : {}),
      });
      return res.message;
    } catch (err) {
      throw new Stage('send', err);
    }
  }

  private update(id: string, patch: Partial<OutboxEntry>) {
    this.entries = this.entries.map((e) => (e.id === id ? { ...e, ...patch } : e));
    this.changed();
  }

  private remove(id: string) {
    const gone = this.entries.find((e) => e.id === id);
    if (gone?.localUrl) URL.revokeObjectURL(gone.localUrl);
    this.entries = this.entries.filter((e) => e.id !== id);
    this.changed();
  }

  private storageKey(userId: string) {
    return outboxStorageKey(userId);
  }

  private restore(userId: string): OutboxEntry[] {
    return readStoredOutbox(userId);
  }

  private changed() {
    if (this.userId) {
      // Text messages (and uploaded attachments) survive a reload; files not uploaded yet cannot.
      const keep = this.entries.filter((e) => e.type === 'text' || e.url).map(({ file: _f, localUrl: _l, ...e }) => e);
      try {
        if (keep.length) localStorage.setItem(this.storageKey(this.userId), JSON.stringify(keep));
        else localStorage.removeItem(this.storageKey(this.userId));
      } catch {
        // Storage full or disabled: the messages still go out from memory.
      }
    }
    for (const fn of this.listeners) fn();
  }
}

/** The outbox of this tab. */
export const outbox = new Outbox();
// Log-out, account deletion or another student signing in: nothing of the last student's stays in memory.
onStudentForgotten(() => outbox.forget());

/** This tab's unsent messages of one conversation, oldest first. */
export function useOutbox(ref: ConversationRef): OutboxEntry[] {
  const all = useSyncExternalStore(
    (fn) => outbox.subscribe(fn),
    () => outbox.snapshot(),
  );
  return all.filter((e) => e.conversation.kind === ref.kind && e.conversation.id === ref.id);
}
