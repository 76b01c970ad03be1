import { vi } from 'vitest';
import type { ChatMessage, ConversationRef, SendMessageInput, SendMessageResult } from '@studybuddy/shared/chat';
import { ApiRequestError } from '../lib/api.ts';

/** What the next request of a kind meets: an HTTP error status, no connection, or an answer lost after the write. */
export type Outcome = number | 'network' | 'lost';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/**
 * The chat API as the outbox sees it: `send` as the socket's `send` op answers (stored once per message id, a resend
 * answers `created: false`), and behind a stubbed `fetch` attachments get an address and deletions. `failNext`
 * scripts what the next sends and uploads meet.
 */
export function fakeChatServer({ latencyMs = 0 } = {}) {
  const stored: ChatMessage[] = [];
  /** Message ids in the order their send requests arrived (retries included). */
  const sends: string[] = [];
  let uploads = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const planned = { send: [] as Outcome[], attach: [] as Outcome[] };

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const [, , , id, action, messageId] = url.pathname.split('/');
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
      if (action === 'attachments') {
        uploads += 1;
        const outcome = planned.attach.shift();
        if (outcome === 'network' || outcome === 'lost') throw new TypeError('Failed to fetch');
        if (outcome) return json(outcome, { error: { code: 'refused', message: `upload refused (${outcome})` } });
        return json(201, { url: `/api/files/chat/${id}/${uploads}` });
      }
      if (action === 'messages' && init.method === 'DELETE') {
        // One's own message deleted for everyone (issue 24): kept as a row without its content.
        const message = stored.find((m) => m.id === messageId);
        if (!message) return json(404, { error: { code: 'not_found', message: 'Not found' } });
        Object.assign(message, { content: '', deletedAt: message.deletedAt ?? new Date().toISOString() });
        return json(200, { message });
      }
      return json(404, { error: { code: 'not_found', message: 'Not found' } });
    } finally {
      inFlight -= 1;
    }
  });

  /** The socket's `send` op: resolves with the ack, rejects as the real client does (status 0: no answer). */
  const send = vi.fn(async (conversation: ConversationRef, body: SendMessageInput): Promise<SendMessageResult> => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      if (latencyMs) await new Promise((r) => setTimeout(r, latencyMs));
      sends.push(body.id);
      const outcome = planned.send.shift();
      if (outcome === 'network') throw new ApiRequestError(0, 'network', 'Network error.');
      if (typeof outcome === 'number') throw new ApiRequestError(outcome, 'refused', `send refused (${outcome})`);
      let message = stored.find((m) => m.id === body.id);
      const created = !message;
      if (!message) {
        message = {
          id: body.id,
          cursor: stored.length + 1,
          conversation,
          senderId: 'me',
          senderName: 'Me',
          type: body.type,
          content: body.content,
          createdAt: new Date().toISOString(),
        };
        stored.push(message);
      }
      if (outcome === 'lost') throw new ApiRequestError(0, 'network', 'Network error.');
      return { message, created };
    } finally {
      inFlight -= 1;
    }
  });

  return {
    fetch,
    send,
    stored,
    sends,
    uploads: () => uploads,
    maxInFlight: () => maxInFlight,
    failNext(kind: 'send' | 'attach', ...outcomes: Outcome[]) {
      planned[kind].push(...outcomes);
    },
  };
}
