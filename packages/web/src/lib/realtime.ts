import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ConversationRef, SendMessageInput, SendMessageResult } from '@studybuddy/shared/chat';
import { LIMITS } from '@studybuddy/shared/limits';
import {
  REALTIME_TIMING,
  WS_CLOSE_QUOTA,
  WS_CLOSE_SIGNED_OUT,
  WS_PATH,
  type ClientFrame,
  type RealtimeEvent,
  type RealtimeEventType,
  type ServerFrame,
  type SinceResult,
} from '@studybuddy/shared/realtime';
import { api, ApiRequestError } from './api.ts';

/**
 * The real-time channel of the web app (docs/architecture.md "Real-time"): one WebSocket per tab, typed events,
 * exponential back-off reconnect, a resync from the last seen message cursor after every reconnect, and
 * polling every 5 s (requirements §7, §9) while the socket cannot open.
 *
 * The app opens it (app/realtime-provider.tsx) and registers each feature's `LiveHandlers`, which apply that
 * feature's events to the TanStack Query cache and refetch what may be stale after a gap (`onResync`). Screens
 * listen with `useRealtimeEvent(type, fn)` while mounted. This module knows no feature's query keys.
 */

export type RealtimeStatus = 'idle' | 'connecting' | 'open' | 'polling';

/** The back-off attempt from which reconnects wait the longest (backoffMaxMs). */
const MAX_BACKOFF_ATTEMPT = Math.ceil(Math.log2(REALTIME_TIMING.backoffMaxMs / REALTIME_TIMING.backoffStartMs));

/** How long a sent message waits for its `ack` before it counts as not sent (the outbox sends it again by its id). */
export const SEND_ACK_TIMEOUT_MS = 20_000;

/** No open socket, or it closed before the answer: worth sending again (status 0, as a request without a network). */
const notConnected = () =>
  new ApiRequestError(0, 'network', 'Network error. Please check your connection and try again.');

interface PendingSend {
  resolve(result: SendMessageResult): void;
  reject(err: ApiRequestError): void;
  timer: ReturnType<typeof setTimeout>;
}

type Handler<K extends RealtimeEventType> = (event: Extract<RealtimeEvent, { type: K }>) => void;
type AnyHandler = (event: RealtimeEvent) => void;

export class RealtimeClient {
  private ws: WebSocket | null = null;
  private users = 0;
  private statusValue: RealtimeStatus = 'idle';
  private cursor: number | null = null;
  /** Whether the screens refetched since this channel started (live events may come before the first hello). */
  private synced = false;
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private pollTimer: ReturnType<typeof setInterval> | undefined;
  private watchdog: ReturnType<typeof setInterval> | undefined;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  private userId: string | null = null;
  private lastFrameAt = 0;
  private readonly handlers = new Map<RealtimeEventType, Set<AnyHandler>>();
  private readonly statusListeners = new Set<() => void>();
  private readonly resyncListeners = new Set<(full: boolean) => void>();
  private readonly signedOutListeners = new Set<() => void>();
  private readonly topics = new Map<string, number>();
  /** Messages sent over the socket and not answered yet, by message id. */
  private readonly pendingSends = new Map<string, PendingSend>();

  get status(): RealtimeStatus {
    return this.statusValue;
  }

  /** Keeps the channel of this user open while at least one caller holds it; returns the release function. */
  acquire(userId: string): () => void {
    this.users += 1;
    if (this.users === 1) {
      const pending = this.stopTimer;
      this.stopTimer = undefined;
      clearTimeout(pending);
      // Released and taken again at once by the same user (a remount): keep the open socket.
      if (pending && this.userId !== userId) this.stop();
      if (!pending || this.userId !== userId) {
        this.userId = userId;
        this.start();
      }
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.users -= 1;
      if (this.users === 0) {
        this.stopTimer = setTimeout(() => {
          this.stopTimer = undefined;
          this.stop();
        }, 1000);
      }
    };
  }

  on<K extends RealtimeEventType>(type: K, handler: Handler<K>): () => void {
    let set = this.handlers.get(type);
    if (!set) this.handlers.set(type, (set = new Set()));
    set.add(handler as AnyHandler);
    return () => void set.delete(handler as AnyHandler);
  }

  /** Called after a reconnect resync (`full` when too much was missed to replay) and on each poll. */
  onResync(fn: (full: boolean) => void): () => void {
    this.resyncListeners.add(fn);
    return () => void this.resyncListeners.delete(fn);
  }

  /** Called when the server closes the socket because the session ended (it was signed out elsewhere). */
  onSignedOut(fn: () => void): () => void {
    this.signedOutListeners.add(fn);
    return () => void this.signedOutListeners.delete(fn);
  }

  onStatus(fn: () => void): () => void {
    this.statusListeners.add(fn);
    return () => void this.statusListeners.delete(fn);
  }

  /** Listens to a non-user topic (a conversation) while held; re-subscribed after every reconnect. */
  subscribe(topic: string): () => void {
    this.topics.set(topic, (this.topics.get(topic) ?? 0) + 1);
    if (this.topics.get(topic) === 1) this.send({ op: 'subscribe', topic });
    return () => {
      const n = (this.topics.get(topic) ?? 1) - 1;
      if (n > 0) return void this.topics.set(topic, n);
      this.topics.delete(topic);
      this.send({ op: 'unsubscribe', topic });
    };
  }

  /** Writes a frame when the socket is open; false otherwise. */
  send(frame: ClientFrame): boolean {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /**
   * Sends a message over the socket (the `send` op, the one send path): resolves with the server's `ack`, which comes
   * after the commit; rejects with an ApiRequestError carrying the server's refusal (status, code, the spec's text),
   * or status 0 when the socket is not open, closes first or no answer comes in time (the outbox sends it again by
   * its id, which the server stores once).
   */
  sendMessage(conversation: ConversationRef, message: SendMessageInput): Promise<SendMessageResult> {
    if (this.statusValue !== 'open' || this.ws?.readyState !== WebSocket.OPEN) return Promise.reject(notConnected());
    this.settleSend(message.id, notConnected());
    return new Promise<SendMessageResult>((resolve, reject) => {
      const timer = setTimeout(() => this.settleSend(message.id, notConnected()), SEND_ACK_TIMEOUT_MS);
      this.pendingSends.set(message.id, { resolve, reject, timer });
      this.send({ op: 'send', conversation, message });
    });
  }

  private settleSend(id: string, outcome: SendMessageResult | ApiRequestError) {
    const pending = this.pendingSends.get(id);
    if (!pending) return;
    this.pendingSends.delete(id);
    clearTimeout(pending.timer);
    if (outcome instanceof ApiRequestError) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  /** The socket is gone: no answer can come for what was sent on it. */
  private failPendingSends() {
    for (const id of [...this.pendingSends.keys()]) this.settleSend(id, notConnected());
  }

  /** Reconnects at once (the browser came back online). */
  retryNow(): void {
    if (!this.users || this.statusValue === 'open' || this.statusValue === 'connecting') return;
    this.attempt = 0;
    clearTimeout(this.reconnectTimer);
    this.connect();
  }

  private setStatus(status: RealtimeStatus) {
    if (this.statusValue === status) return;
    this.statusValue = status;
    for (const fn of this.statusListeners) fn();
  }

  private start() {
    window.addEventListener('online', this.onOnline);
    this.watchdog = setInterval(() => {
      // Nothing heard for 2.5 ping intervals: the connection is dead even if the browser does not know yet.
      if (this.ws?.readyState === WebSocket.OPEN && Date.now() - this.lastFrameAt > REALTIME_TIMING.pingMs * 2.5) {
        this.ws.close();
      }
    }, 5_000);
    this.connect();
  }

  private stop() {
    window.removeEventListener('online', this.onOnline);
    clearInterval(this.watchdog);
    clearTimeout(this.reconnectTimer);
    this.stopPolling();
    const ws = this.ws;
    this.ws = null;
    ws?.close();
    this.failPendingSends();
    this.cursor = null;
    this.synced = false;
    this.setStatus('idle');
  }

  private readonly onOnline = () => this.retryNow();

  private connect() {
    if (!this.users) return;
    // A reconnect names the last seen cursor: the server sends what was missed before anything live.
    const query = this.cursor === null ? '' : `?cursor=${this.cursor}`;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${WS_PATH}${query}`;
    const previous = this.ws;
    this.ws = null;
    previous?.close();
    this.failPendingSends();
    const ws = new WebSocket(url);
    this.ws = ws;
    if (this.statusValue !== 'polling') this.setStatus('connecting');
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      for (const topic of this.topics.keys()) this.send({ op: 'subscribe', topic });
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      let frame: ServerFrame;
      try {
        frame = JSON.parse(String(e.data)) as ServerFrame;
      } catch {
        return;
      }
      this.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPendingSends();
      if (!this.users) return;
      // The session ended (signed out elsewhere, the account disabled): the app finds out from the session at once.
      if (event.code === WS_CLOSE_SIGNED_OUT) for (const fn of this.signedOutListeners) fn();
      // Too many of the student's tabs and devices are connected: retrying soon cannot help, so wait the longest.
      if (event.code === WS_CLOSE_QUOTA) this.attempt = Math.max(this.attempt, MAX_BACKOFF_ATTEMPT);
      // The socket cannot open (or just dropped): poll every 5 s until it is back.
      this.startPolling();
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect() {
    const base = Math.min(REALTIME_TIMING.backoffStartMs * 2 ** this.attempt, REALTIME_TIMING.backoffMaxMs);
    this.attempt += 1;
    const delay = base / 2 + Math.random() * (base / 2);
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
  }

  private onFrame(frame: ServerFrame) {
    switch (frame.type) {
      case 'hello':
        // The server answered: the channel works (a socket that opens and drops at once keeps the back-off
        // growing and the polling going).
        this.attempt = 0;
        this.stopPolling();
        this.setStatus('open');
        // First connection: live from here on; what was fetched before the socket opened is refetched. The server
        // subscribes the socket before it reads hello's cursor, so a live event may have come (and moved the
        // cursor) already.
        if (!this.synced) {
          this.synced = true;
          this.cursor = Math.max(this.cursor ?? 0, frame.cursor);
          this.resynced(true);
        }
        return;
      case 'event':
        this.dispatch(frame.event);
        return;
      case 'resync.done':
        this.cursor = Math.max(this.cursor ?? 0, frame.cursor);
        this.resynced(frame.truncated);
        return;
      case 'resync.required':
        if (this.cursor !== null) this.send({ op: 'resync', cursor: this.cursor });
        return;
      case 'ping':
        this.send({ op: 'pong' });
        return;
      case 'ack':
        this.settleSend(frame.ref, { message: frame.message, created: frame.created });
        return;
      case 'error':
        if (frame.ref) {
          const code = frame.code ?? `http_${frame.status}`;
          this.settleSend(frame.ref, new ApiRequestError(frame.status, code, frame.message, frame.field));
        }
        return;
      default:
        return;
    }
  }

  private dispatch(event: RealtimeEvent) {
    if (event.type === 'message.created') this.cursor = Math.max(this.cursor ?? 0, event.message.cursor);
    // An edit or a deletion is a step of the same sequence: a resync after it starts after it.
    if (event.type === 'message.updated') this.cursor = Math.max(this.cursor ?? 0, event.cursor);
    for (const fn of this.handlers.get(event.type) ?? []) {
      try {
        fn(event);
      } catch (err) {
        console.error('realtime handler failed', err);
      }
    }
  }

  private resynced(full: boolean) {
    for (const fn of this.resyncListeners) fn(full);
  }

  private startPolling() {
    this.setStatus('polling');
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => void this.poll(), LIMITS.unreadPollMs);
  }

  private stopPolling() {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }

  /** One round of the polling fallback: the missed messages after the cursor, then a refetch of counts. */
  private async poll() {
    try {
      const first = this.cursor === null;
      const result = await api<SinceResult>(`/api/realtime/since${first ? '' : `?cursor=${this.cursor}`}`);
      if (!first) for (const event of result.events) this.dispatch(event);
      this.cursor = Math.max(this.cursor ?? 0, result.cursor);
      // The first round only learns where to start: what was fetched before is refetched.
      this.resynced(first || !this.synced || result.truncated);
      this.synced = true;
    } catch {
      // Offline as well: try again next round.
    }
  }
}

/** The one channel of this tab. */
export const realtime = new RealtimeClient();

/** What a feature's live handlers get: the query cache to keep current, and whose channel it is. */
export interface LiveContext {
  client: QueryClient;
  me: string;
}

/**
 * A feature's event → cache handlers (`realtime.on`, `realtime.onResync`, `realtime.onStatus`), registered by
 * the app while the channel is open; returns the function that removes them.
 */
export type LiveHandlers = (context: LiveContext) => () => void;

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    (fn) => realtime.onStatus(fn),
    () => realtime.status,
  );
}

/** Calls `handler` for every event of this type while mounted (the latest handler is always used). */
export function useRealtimeEvent<K extends RealtimeEventType>(type: K, handler: Handler<K>): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => realtime.on(type, (e) => ref.current(e)), [type]);
}

/** Listens to a topic (e.g. the open conversation) while mounted. */
export function useRealtimeTopic(topic: string | null): void {
  useEffect(() => (topic ? realtime.subscribe(topic) : undefined), [topic]);
}
