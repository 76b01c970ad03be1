import { afterEach, describe, expect, it, vi } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { ChatMessage, ConversationRef } from '@studybuddy/shared/chat';
import { conversationKeys } from './conversations-api.ts';
import { applyMessageUpdate, insertMessage, isOpen, markOpen, type History } from './message-cache.ts';

const chat: ConversationRef = { kind: 'chat', id: 'a_b' };
const group: ConversationRef = { kind: 'group', id: 'g1' };

const message = (cursor: number, conversation = chat, id = `m${cursor}`): ChatMessage => ({
  id,
  cursor,
  conversation,
  senderId: 'a',
  senderName: 'A',
  type: 'text',
  content: `message ${cursor}`,
  createdAt: new Date(1_700_000_000_000 + cursor * 1000).toISOString(),
});

/** A loaded history: pages newest first, each oldest first, as the conversation view keeps it. */
function load(client: QueryClient, ref: ConversationRef, pages: { cursors: number[]; hasMore: boolean }[]) {
  const data: History = {
    pages: pages.map((p) => ({ messages: p.cursors.map((c) => message(c, ref)), hasMore: p.hasMore })),
    pageParams: pages.map((_, i) => (i === 0 ? undefined : 1)),
  };
  client.setQueryData(conversationKeys.messages(ref), data);
}

const cursors = (client: QueryClient, ref: ConversationRef) =>
  client.getQueryData<History>(conversationKeys.messages(ref))?.pages.map((p) => p.messages.map((m) => m.cursor));

const contents = (client: QueryClient, ref: ConversationRef) =>
  client.getQueryData<History>(conversationKeys.messages(ref))?.pages.flatMap((p) => p.messages.map((m) => m.content));

describe('message cache', () => {
  it('a message or an edit arriving live while the history loads is in it once the (older) answer lands', async () => {
    const client = new QueryClient();
    const answers: ((page: History['pages'][number]) => void)[] = [];
    const fetchHistory = () =>
      client.fetchInfiniteQuery({
        queryKey: conversationKeys.messages(chat),
        queryFn: () => new Promise<History['pages'][number]>((resolve) => answers.push(resolve)),
        initialPageParam: {},
      });
    // The server read the history before message 3 was committed; its event comes before the answer.
    const first = fetchHistory();
    insertMessage(client, message(3));
    answers[0]!({ messages: [message(1), message(2)], hasMore: false });
    await first;
    await Promise.resolve();
    expect(cursors(client, chat)).toEqual([[1, 2, 3]]);

    // A refetch read before an edit: the edit stays.
    const again = client.refetchQueries({ queryKey: conversationKeys.messages(chat) });
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    const edited = { ...message(2), content: 'fixed', editedAt: new Date(1_800_000_000_000).toISOString() };
    applyMessageUpdate(client, edited);
    answers[1]!({ messages: [message(1), message(2), message(3)], hasMore: false });
    await again;
    await Promise.resolve();
    expect(contents(client, chat)).toEqual(['message 1', 'fixed', 'message 3']);
  });

  it('shows an edited or deleted message as it is now, never going back to an older state', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [1, 2, 3], hasMore: false }]);
    const at = (s: number) => new Date(1_800_000_000_000 + s * 1000).toISOString();
    const edited = { ...message(2), content: 'fixed', editedAt: at(1) };
    applyMessageUpdate(client, edited);
    expect(contents(client, chat)).toEqual(['message 1', 'fixed', 'message 3']);
    // An older edit arriving late changes nothing.
    applyMessageUpdate(client, { ...message(2), content: 'first fix', editedAt: at(0) });
    expect(contents(client, chat)).toEqual(['message 1', 'fixed', 'message 3']);
    const deleted = { ...message(2), content: '', deletedAt: at(2) };
    applyMessageUpdate(client, deleted);
    // A deletion is final: a later edit event (sent before it, delivered after) does not bring the text back.
    applyMessageUpdate(client, { ...edited, editedAt: at(3) });
    expect(client.getQueryData<History>(conversationKeys.messages(chat))!.pages[0]!.messages[1]).toEqual(deleted);
    expect(cursors(client, chat)).toEqual([[1, 2, 3]]);
  });

  it('takes reactions by version: a later state wins, an older one arriving late changes nothing (issue 30)', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [1, 2], hasMore: false }]);
    const one = { emoji: '👍', users: [{ id: 'a', name: 'A' }] };
    const two = { emoji: '👍', users: [...one.users, { id: 'b', name: 'B' }] };
    applyMessageUpdate(client, { ...message(2), reactions: [two], version: 12 });
    applyMessageUpdate(client, { ...message(2), reactions: [one], version: 11 });
    const held = () => client.getQueryData<History>(conversationKeys.messages(chat))!.pages[0]!.messages[1]!;
    expect(held().reactions).toEqual([two]);
    applyMessageUpdate(client, { ...message(2), version: 13 });
    expect(held().reactions).toBeUndefined();
  });

  it('keeps replies’ quotes as their original is now: edited, deleted, even when the original is not loaded', () => {
    const client = new QueryClient();
    const reply = (cursor: number, to: ChatMessage): ChatMessage => ({
      ...message(cursor),
      replyTo: { id: to.id, cursor: to.cursor, senderId: 'a', senderName: 'A', type: 'text', excerpt: to.content },
    });
    const older = message(1);
    const shown = message(5);
    const data: History = {
      pages: [{ messages: [shown, reply(6, shown), reply(7, older)], hasMore: true }],
      pageParams: [undefined],
    };
    client.setQueryData(conversationKeys.messages(chat), data);
    const quotes = () =>
      client.getQueryData<History>(conversationKeys.messages(chat))!.pages[0]!.messages.map((m) => m.replyTo);
    applyMessageUpdate(client, {
      ...shown,
      content: 'first line\nsecond',
      editedAt: new Date().toISOString(),
      version: 9,
    });
    expect(quotes()[1]).toMatchObject({ id: 'm5', excerpt: 'first line' });
    // The original of the other reply is on a page not loaded: its deletion still reaches the quote.
    applyMessageUpdate(client, { ...older, content: '', deletedAt: new Date().toISOString(), version: 10 });
    expect(quotes()[2]).toEqual({ id: 'm1', cursor: 1, deleted: true });
    expect(cursors(client, chat)).toEqual([[5, 6, 7]]);
  });

  it('takes an update of a message it does not hold yet like a new message (a resync after a gap)', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [1, 2], hasMore: false }]);
    applyMessageUpdate(client, { ...message(3), content: '', deletedAt: new Date().toISOString() });
    expect(cursors(client, chat)).toEqual([[1, 2, 3]]);
    expect(contents(client, chat)).toEqual(['message 1', 'message 2', '']);
  });

  it('puts new messages into the newest page in cursor order, whatever order they arrive in', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [1, 2, 3], hasMore: false }]);
    insertMessage(client, message(5));
    insertMessage(client, message(4));
    expect(cursors(client, chat)).toEqual([[1, 2, 3, 4, 5]]);
  });

  it('keeps one copy of a message that arrives twice (the HTTP answer and the socket)', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [1, 2], hasMore: false }]);
    insertMessage(client, message(3));
    insertMessage(client, message(3));
    expect(cursors(client, chat)).toEqual([[1, 2, 3]]);
  });

  it('puts a late message into the loaded page its cursor belongs to', () => {
    const client = new QueryClient();
    load(client, chat, [
      { cursors: [20, 25, 30], hasMore: true },
      { cursors: [10, 12, 19], hasMore: true },
    ]);
    insertMessage(client, message(15));
    expect(cursors(client, chat)).toEqual([
      [20, 25, 30],
      [10, 12, 15, 19],
    ]);
  });

  it('leaves a message older than everything loaded to the page that will load it', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [10, 11], hasMore: true }]);
    insertMessage(client, message(5));
    expect(cursors(client, chat)).toEqual([[10, 11]]);

    // Nothing older exists: it is the oldest message.
    load(client, chat, [{ cursors: [10, 11], hasMore: false }]);
    insertMessage(client, message(5));
    expect(cursors(client, chat)).toEqual([[5, 10, 11]]);
  });

  it('touches only its own conversation, and starts no history for one not loaded', () => {
    const client = new QueryClient();
    load(client, chat, [{ cursors: [1], hasMore: false }]);
    insertMessage(client, message(2, group));
    expect(cursors(client, chat)).toEqual([[1]]);
    expect(client.getQueryData(conversationKeys.messages(group))).toBeUndefined();
  });

  it('reaches a history opened at a message too, once its newest messages are loaded', () => {
    const client = new QueryClient();
    const at = conversationKeys.messagesAt(chat, 11);
    const opened = (hasNewer: boolean): History => ({
      pages: [{ messages: [message(10), message(11), message(12)], hasMore: true, hasNewer }],
      pageParams: [{ around: 11 }],
    });
    const atCursors = () => client.getQueryData<History>(at)?.pages.map((p) => p.messages.map((m) => m.cursor));
    load(client, chat, [{ cursors: [40, 41], hasMore: true }]);
    // Newer messages (13…41) are not loaded below the found one: the new message waits for their page.
    client.setQueryData(at, opened(true));
    insertMessage(client, message(42));
    expect(atCursors()).toEqual([[10, 11, 12]]);
    expect(cursors(client, chat)).toEqual([[40, 41, 42]]);
    // Scrolled down to the newest: it goes in like anywhere else.
    client.setQueryData(at, opened(false));
    insertMessage(client, message(43));
    expect(atCursors()).toEqual([[10, 11, 12, 43]]);
  });

  it('puts a message into an empty history', () => {
    const client = new QueryClient();
    load(client, group, [{ cursors: [], hasMore: false }]);
    insertMessage(client, message(7, group));
    expect(cursors(client, group)).toEqual([[7]]);
  });
});

describe('open conversations', () => {
  afterEach(() => vi.restoreAllMocks());

  it('count as open while any screen shows them and the tab is visible', () => {
    const closeA = markOpen(chat);
    const closeB = markOpen({ ...chat });
    expect(isOpen(chat)).toBe(true);
    expect(isOpen(group)).toBe(false);
    closeA();
    expect(isOpen(chat)).toBe(true);
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    expect(isOpen(chat)).toBe(false);
    vi.restoreAllMocks();
    closeB();
    expect(isOpen(chat)).toBe(false);
  });
});
